/**
 * The explorer's run summary reads results.jsonl and config.json once a request, and keys what it
 * keeps by the bytes it parsed. It hashed each file for the key and, on a miss, read it again to
 * parse: a file rewritten between the two reads was kept under the key of the bytes before, so
 * once they were back (a resume that put a line back as it was, a copy restored) the summary of
 * the other bytes was served for them. Here the eighth item's line changes between the two reads
 * (wrong → right, 4/8 → 5/8) and then back: the explorer showed 5 correct (62.5%) beside a file
 * and a report.md of 4 (50%). Opens are counted through node:fs/promises (no timing). Data: the
 * first 8 bundled Bar Exam QA questions, 4 answered right.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { runSummary } from './run-summary-api.js';
import { findRun } from './runs.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-summary-one-read-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const dir = join(root, 'case-jury');
const results = join(dir, 'results.jsonl');
const config = join(dir, 'config.json');
let qs: Question[];

const other = (a: string) => (a === 'A' ? 'B' : 'A');
const line = (q: Question, prediction: string) => JSON.stringify({ id: q.id, prediction, gold: q.answer, correct: prediction === q.answer, ms: 900 });
/** Items 1–4 right, 5–8 wrong; `eighthRight`: the eighth right too. */
const content = (eighthRight = false) => `${qs.map((q, i) => line(q, i < 4 || (eighthRight && i === 7) ? q.answer : other(q.answer))).join('\n')}\n`;

/** Opens of each file through node:fs/promises while `count` runs; `onOpen` runs before each open goes ahead. */
const realOpen = fsp.open;
async function countOpens<T>(count: () => Promise<T>, onOpen: (file: string, nth: number) => void = () => undefined) {
  const opens = new Map<string, number>();
  fsp.open = (async (file: Parameters<typeof realOpen>[0], ...rest: unknown[]) => {
    const f = String(file);
    opens.set(f, (opens.get(f) ?? 0) + 1);
    onOpen(f, opens.get(f)!);
    return (realOpen as (...a: unknown[]) => ReturnType<typeof realOpen>)(file, ...rest);
  }) as typeof realOpen;
  syncBuiltinESMExports();
  try {
    const value = await count();
    return { value, results: opens.get(results) ?? 0, config: opens.get(config) ?? 0 };
  } finally {
    fsp.open = realOpen;
    syncBuiltinESMExports();
  }
}
afterEach(() => {
  fsp.open = realOpen;
  syncBuiltinESMExports();
});

beforeAll(async () => {
  qs = (await loadQuestions('barexam', 'all')).slice(0, 8);
  mkdirSync(dir);
  writeFileSync(
    config,
    JSON.stringify({ seed: 13, config: { system: 'case', mode: 'jury', dataset: 'barexam' }, provenance: { createdAt: '2026-12-01T00:00:00.000Z', items: 8 } }),
  );
});

describe("the explorer's run summary", () => {
  it('is of the bytes its key names: a line changed between the key and the parse, then put back, shows the file as it is (it showed 5/8 beside 4/8)', async () => {
    writeFileSync(results, content());
    const run = (await findRun(root, 'case-jury'))!;
    // a second read of results.jsonl within the request finds the eighth item answered right
    const first = await countOpens(
      () => runSummary(run),
      (f, nth) => {
        if (f === results && nth === 2) writeFileSync(results, content(true));
      },
    );
    writeFileSync(results, content()); // the line as it was: 4 right
    const now = await runSummary(run);
    expect([first.value.correct, now.correct]).toEqual([4, 4]);
    expect(now.figures[0]).toMatchObject({ label: 'accuracy', estimate: 0.5 });
  });

  it('reads results.jsonl and config.json once a request, on a miss and on a hit (it read each twice on a miss)', async () => {
    writeFileSync(results, content(true));
    const run = (await findRun(root, 'case-jury'))!;
    const miss = await countOpens(() => runSummary(run));
    const hit = await countOpens(() => runSummary(run));
    expect([miss.value.correct, hit.value.correct]).toEqual([5, 5]);
    expect([miss.results, miss.config, hit.results, hit.config]).toEqual([1, 1, 1, 1]);
  });
});
