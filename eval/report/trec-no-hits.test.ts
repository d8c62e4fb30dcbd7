/**
 * A TREC grid run (`reproduce`'s trec cells) leaves a topic it returned no hit for out of every measure,
 * as trec_eval skips a topic with no run line — and now every surface says so. Before, report.md's
 * Failures section said those topics were "scored 0 in every figure's n" beside a MAP over n 15 of 20;
 * the headline figure (report.md, the explorer, /v1) had no note; and `compare` dropped them from both
 * runs' rows with "failed: A 0, B 0" and no word, A's column (0.770) unlike A's own report (0.628).
 * Two runs of 20 topics: B finds nothing for topics 1–5 and scores A's MAP − 0.05 on every other.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRuns, formatComparison } from './compare.js';
import { writeReport } from './write-report.js';

const dir = mkdtempSync(join(tmpdir(), 'trec-no-hits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const mapA = (i: number) => (i <= 5 ? 0.2 : [0.9, 0.8, 0.7, 0.85, 0.6][i % 5]);
function writeRun(name: string, method: string, noHitsUpTo: number): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  const lines = Array.from({ length: 20 }, (_, k) => {
    const i = k + 1;
    const none = i <= noHitsUpTo;
    const map = name === 'a' ? mapA(i) : mapA(i) - 0.05;
    return JSON.stringify({
      id: String(i),
      prediction: none ? null : `D${i}`,
      gold: '',
      correct: false,
      ms: 5,
      metrics: none ? { retrieved: 0, map: null } : { retrieved: 1000, map },
    });
  });
  writeFileSync(join(d, 'results.jsonl'), `${lines.join('\n')}\n`);
  writeFileSync(
    join(d, 'config.json'),
    JSON.stringify({
      seed: 13,
      config: { system: 'trec', collection: 'cacm', method, hits: 1000, ties: 'none', metrics: ['map'], limit: null },
      provenance: { items: 20, lexcaseSystem: 'trec' },
    }),
  );
  return d;
}

let a: string;
let b: string;
beforeAll(() => {
  a = writeRun('a', 'bm25', 0);
  b = writeRun('b', 'qld', 5);
});

describe('a TREC run’s topics with no hits', () => {
  it('report.md says they are left out of n (it said "scored 0"), and the MAP figure says what it is over', async () => {
    await writeReport(b);
    const md = readFileSync(join(b, 'report.md'), 'utf8');
    expect(md).toMatch(/\| MAP +\| 15 \|/);
    expect(md).toContain(
      "5 of 20 topics returned no hits: not failures, left out of every measure's n, as trec_eval skips a topic with no line in the run file (`eval run --complete` would score them 0).",
    );
    expect(md).not.toContain('scored 0 in every figure');
    expect(md).toContain('MAP: over the topics with hits: 5 of 20 returned none and are left out');
    // a run with hits for every topic says nothing of it
    await writeReport(a);
    expect(readFileSync(join(a, 'report.md'), 'utf8')).not.toMatch(/no hits|with hits/);
  });

  it('compare names the topics left out of both runs’ rows, in the text and --json (it said only "failed: A 0, B 0")', async () => {
    const c = await compareRuns(a, b);
    const map = c.measures.find((m) => m.id === 'map')!;
    expect(map.n).toBe(15);
    const line =
      'no hits among the 20 shared topics: A 0, B 5 (1, 2, 3, …): those 5 topics are left out of every row for both runs, as trec_eval skips a topic with no line in the run file — each row is over the topics both runs returned hits for (`eval run --complete` of the run files would score them 0)';
    expect(c.pairingLines).toContain(line);
    expect(formatComparison(c)).toContain(`- ${line}`);
    // two runs with hits for every topic: no line
    expect((await compareRuns(a, a)).pairingLines.some((l) => l.startsWith('no hits'))).toBe(false);
  });
});
