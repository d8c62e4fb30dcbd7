/**
 * One measure, one spelling: 3-ply's headline figures (report.md's Figures, the explorer, /v1)
 * name the measures as the 3-ply table and docs/threeply.md do. Before, the figures said
 * "factor-utilisation recall" (id factor-utilisation-recall) and the table "factor utilization recall".
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { headlineFigures } from '../../eval/systems.js';
import type { ResultRecord } from '../../eval/types.js';
import '../systems.js'; // the agent systems' list, handed to eval
import { summarizeRun, summaryMarkdown } from './summary.js';

const rec = (id: string, prediction: string, gold: string, m: Record<string, number | boolean>): ResultRecord =>
  ({ id, prediction, gold, correct: prediction === gold, metrics: m, ms: 1 }) as ResultRecord;
const records = [
  rec('arguable-001', 'argue', 'argue', { nH: 1, nGt: 14, nUtil: 6, abstained: false }),
  rec('arguable-002', 'argue', 'argue', { nH: 3, nGt: 12, nUtil: 8, abstained: false }),
  rec('mismatched-001', 'abstain', 'abstain', { nH: 0, nGt: 17, nUtil: 0, abstained: true }),
];

describe('3-ply measure names', () => {
  it('the headline figures spell each measure as the 3-ply table and docs/threeply.md do', () => {
    const figures = headlineFigures('threeply/reflective', records, { config: {}, seed: 13 });
    const table = summaryMarkdown('reflective', summarizeRun(records));
    const doc = readFileSync(new URL('../../docs/threeply.md', import.meta.url), 'utf8');
    const pooled = figures.filter((f) => f.id !== 'abstention');
    expect(pooled.map((f) => [f.id, f.label])).toEqual([
      ['hallucination-accuracy', 'hallucination accuracy'],
      ['factor-utilization-recall', 'factor utilization recall'],
    ]);
    for (const f of pooled) {
      expect(table).toContain(`${f.label} [`);
      expect(doc).toContain(f.label);
    }
  });
});
