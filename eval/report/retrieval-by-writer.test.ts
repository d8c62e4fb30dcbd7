/**
 * Whether a run is a retrieval run (judged by Recall@k and MRR, no accuracy) follows the system that
 * wrote it, as its config.json records (`provenance.lexcaseSystem`, eval/systems.ts
 * recordedSystemSpec), not the name the run chose: before, a system of the user's own named
 * "retrieval" (runExperiment, no lexcaseSystem) lost report.md's Accuracy and "Accuracy by
 * confidence" sections, and `lexcase compare` refused it beside another run of the user's ("B is a
 * retrieval run (judged by Recall@k and MRR), the other is not").
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js';
import { contextFrom, runExperiment } from '../runner.js';
import { compareRuns, itemJudge } from './compare.js';
import { readRun } from './read-run.js';
import { writeReport } from './write-report.js';

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'retrieval-by-writer-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

// 20 Bar Exam-like items; a run answers the first `right` of them right
const items = Array.from({ length: 20 }, (_, i) => ({ id: `mbe_${i + 1}`, answer: 'ABCD'[i % 4] }));

async function userRun(name: string, system: string, right: number): Promise<string> {
  const runDir = join(root, name);
  await runExperiment({
    runDir,
    system: async (q) => ({ prediction: Number(q.id.slice(4)) <= right ? q.answer : 'Z', confidence: 'high', trace: {} }),
    items,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system, dataset: 'mine' },
    seed: 13,
  });
  return runDir;
}

describe('a retrieval run is one lexcase’s retrieval wrote, as config.json records', () => {
  it('a system of your own named "retrieval" gets the Accuracy sections and compares by accuracy', async () => {
    const own = await userRun('user-retrieval', 'retrieval', 14);
    const other = await userRun('user-mine', 'mine', 10);
    const report = await writeReport(own, { iterations: 200 });
    const ids = report.sections.map((s) => s.id);
    expect(ids).toContain('accuracy');
    expect(ids).toContain('byConfidence');
    expect(readFileSync(join(own, 'report.md'), 'utf8')).toMatch(/\| all items \| 20 \| +14 \| +70\.0% \|/);
    const c = await compareRuns(other, own, { iterations: 200 });
    expect(c.judgedBy).toBe('accuracy');
    expect(c.primary.text).toMatchObject({ a: '50.0%', b: '70.0%', diff: '+20.0 pp' });
    expect(itemJudge(await readRun(own, { traces: false })).label).toBe('right');
  });

  it("lexcase's retrieval runs (recorded, or a run dir from before the record named retrieval) stay retrieval runs", async () => {
    const lines = items.map((q, i) =>
      JSON.stringify({
        id: q.id,
        prediction: 'p1',
        gold: 'p1',
        correct: i < 5,
        ms: 1,
        metrics: { 'recall@5': i < 8 ? 1 : 0, firstRank: i < 8 ? 1 + (i % 5) : null },
      }),
    );
    for (const [name, provenance] of [
      ['lexcase-retrieval', { lexcaseVersion: '0.1.0', gitSha: 'unknown', items: 20, lexcaseSystem: 'retrieval' }],
      ['older-retrieval', { lexcaseVersion: '0.1.0', gitSha: 'unknown', items: 20 }],
    ] as const) {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ seed: 13, config: { system: 'retrieval', method: 'bm25', ks: [5] }, provenance }));
      writeFileSync(join(dir, 'results.jsonl'), lines.join('\n') + '\n');
      const ids = (await writeReport(dir, { iterations: 200 })).sections.map((s) => s.id);
      expect(ids).not.toContain('accuracy');
      expect(ids).not.toContain('byConfidence');
      expect(itemJudge(await readRun(dir, { traces: false })).label).toBe('hit (Recall@5 > 0)');
    }
    const c = await compareRuns(join(root, 'older-retrieval'), join(root, 'lexcase-retrieval'), { iterations: 200 });
    expect(c.judgedBy).toBe('retrieval measures');
  });
});
