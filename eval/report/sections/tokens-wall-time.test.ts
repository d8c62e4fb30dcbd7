/**
 * report.md's "Wall time per item" (audit: it summed `ms` over every result line but divided by the
 * lines with `tokens` — lines from older versions have none —, and averaged items answered from the
 * response cache, near 0 s, in with those the endpoint answered). Now the mean is over the items it
 * sums, cache-answered items are left out and counted apart, and attempts a retry replaced (which
 * record no time) are said not to be timed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRun } from '../read-run.js';
import { runExperiment } from '../../runner.js';
import { tokensSection } from './tokens.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-wall-time-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const usage = (calls: number, cached: number) => ({
  input: 900 * (calls - cached),
  output: 80 * (calls - cached),
  total: 980 * (calls - cached),
  calls,
  cached,
});
const line = (id: string, ms: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ id, prediction: 'A', gold: 'A', correct: true, ms, ...extra }) + '\n';

async function runWith(lines: string[]) {
  const ids = lines.map((l) => (JSON.parse(l) as { id: string }).id);
  await runExperiment({
    runDir: dir,
    system: async () => ({ prediction: 'A', trace: {} }),
    items: ids.map((id) => ({ id })),
    gold: () => 'A',
    makeContext: () => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
    config: { system: 'debate' },
    seed: 1,
  });
  // the recorded times of a resumed run: an older line without tokens, items answered from the cache
  writeFileSync(join(dir, 'results.jsonl'), lines.join(''));
  return (await tokensSection(await readRun(dir), {} as never))!;
}

describe('report.md wall time per item', () => {
  it('is the mean over the items it sums, with cache-answered items left out and counted apart', async () => {
    const section = await runWith([
      line('mbe_137', 4000, { tokens: usage(3, 0) }),
      line('mbe_581', 6000, { tokens: usage(3, 1) }),
      line('mbe_682', 20, { tokens: usage(3, 3) }),
      line('mbe_866', 20, { tokens: usage(3, 3) }),
      line('mbe_901', 2000), // written by an older version: no tokens
    ]);
    // before: "Wall time per item: 3.01 s (mean)." (12,040 ms over the 4 lines with tokens)
    expect(section.markdown).toContain('Wall time per item: 4.00 s (mean of 3 items; 2 items answered wholly from the response cache left out, 0.02 s mean).');
    expect(section.json).toMatchObject({ msPerItem: 4000, msItems: 3, msFromCacheItems: 2 });
  });

  it('says so when every item came from the cache, and that attempts a retry replaced are not timed', async () => {
    const replaced = { attempts: 2, tokens: usage(2, 0) };
    const section = await runWith([line('mbe_137', 30, { tokens: usage(2, 2), replacedAttempts: replaced }), line('mbe_581', 10, { tokens: usage(2, 2) })]);
    expect(section.markdown).toContain(
      'Wall time per item: 0.02 s (mean of 2 items, all answered from the response cache; 2 failed attempts a retry replaced are not timed).',
    );
  });
});
