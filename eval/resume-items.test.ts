/**
 * A resume over other items than those recorded — another data copy with the same config (rows
 * reordered, labels changed) — is refused with one RUN_INVALID naming items, and leaves the run dir
 * as it was; a grow over the same data still runs only the new items.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLegalBenchTask } from '../corpora/legalbench.js';
import type { TaskExample } from '../corpora/types.js';
import { readResults } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-resume-items-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// answers "No" to every item: the bundled hearsay rows make some right, some wrong
const system: AgentSystem<TaskExample> = async () => ({ prediction: 'No', trace: {} });
const run = (items: TaskExample[], limit: number, gold: (x: TaskExample) => string = (x) => x.label, itemContent?: (x: TaskExample) => unknown) =>
  runExperiment({
    runDir: dir,
    system,
    items: items.slice(0, limit),
    gold,
    itemContent,
    makeContext: contextFrom(),
    config: { system: 'acal/sp', task: 'hearsay', split: 'test', limit },
    seed: 13,
  });
const flipped = (x: TaskExample) => (x.label === 'Yes' ? 'No' : 'Yes');
const files = () => [readFileSync(join(dir, 'config.json'), 'utf8'), readFileSync(join(dir, 'results.jsonl'), 'utf8')];

describe('a resume over other items than the run recorded', () => {
  it('is refused when the same config selects other items (a copy of the data with its rows reversed), naming recorded items, and the run dir stays as it was', async () => {
    const hearsay = await loadLegalBenchTask('hearsay', { split: 'test' });
    await run(hearsay, 4);
    const before = files();
    await expect(run([...hearsay].reverse(), 4)).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(
        /holds 4 recorded items the command does not select \(e\.g\. hearsay-test-0, hearsay-test-1, hearsay-test-2\).*use a new run dir/,
      ),
    });
    expect(files()).toEqual(before);
    expect((await readResults(dir)).records).toHaveLength(4);
  });

  it('is refused when a recorded item has another gold label now (a grow over a relabelled copy), naming the item and both labels', async () => {
    const hearsay = await loadLegalBenchTask('hearsay', { split: 'test' });
    await run(hearsay, 4);
    const before = files();
    const first = hearsay[0];
    await expect(run(hearsay, 8, flipped)).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringContaining(`4 recorded items have another gold label now (e.g. ${first.id}: "${first.label}" recorded, "${flipped(first)}" now;`),
    });
    expect(files()).toEqual(before);
    // the same data grows: only the new items run, each scored against its own gold
    expect(await run(hearsay, 8)).toMatchObject({ skipped: 4, ran: 4 });
    const records = (await readResults(dir)).records;
    expect(records.map((r) => [r.id, r.gold])).toEqual(hearsay.slice(0, 8).map((x) => [x.id, x.label]));
  });

  it('is refused when a recorded item holds other content under the same id and gold (its itemChecksum differs)', async () => {
    const hearsay = await loadLegalBenchTask('hearsay', { split: 'test' });
    await run(hearsay, 4, undefined, (x) => x.text);
    const before = files();
    const edited = (x: TaskExample) => (x.id === hearsay[1].id ? `${x.text} (edited)` : x.text);
    await expect(run(hearsay, 4, undefined, edited)).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringContaining(`1 recorded item has other content now under the same id (e.g. ${hearsay[1].id}; its itemChecksum differs)`),
    });
    expect(files()).toEqual(before);
    expect(await run(hearsay, 4, undefined, (x) => x.text)).toMatchObject({ skipped: 4, ran: 0 });
  });
});
