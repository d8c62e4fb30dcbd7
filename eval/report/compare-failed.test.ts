/**
 * A comparison says how many of the shared items each run failed: before, `lexcase compare`, its
 * --json and the explorer's compare views printed "accuracy 58.3% → 8.3%, −50.0 pp" and "Δ = B − A
 * on the items both runs scored" with no word that B failed 11 of the 12 items (HTTP 400) and
 * that they were counted as wrong.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../core/errors.js';
import { compareRunsView } from '../../web/server/compare-api.js';
import { compareManyRuns } from '../../web/server/compare-runs-api.js';
import type { RunEntry } from '../../web/server/runs.js';
import { runExperiment } from '../runner.js';
import type { AgentSystem, SystemContext } from '../types.js';
import { compareRuns, formatComparison } from './compare.js';

interface Item {
  id: string;
  answer: string;
}
// 12 hearsay items, as `lexcase run acal --task hearsay --limit 12`
const ITEMS: Item[] = Array.from({ length: 12 }, (_, i) => ({ id: `hearsay-test-${i}`, answer: i % 3 === 0 ? 'Yes' : 'No' }));
const ctx = (): SystemContext => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} });

/** Right on 7 of 12 items; the items in `fail` end in an HTTP 400 from the model server. */
const system =
  (fail: (i: number) => boolean): AgentSystem<Item> =>
  async (item) => {
    const i = Number(item.id.split('-').pop());
    if (fail(i)) throw errors.llmRequestFailed('HTTP 400: 400 bad request');
    return { prediction: i < 7 ? item.answer : item.answer === 'Yes' ? 'No' : 'Yes', trace: {} };
  };

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-compare-failed-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function makeRun(name: string, fail: (i: number) => boolean): Promise<RunEntry> {
  const dir = join(root, name);
  await runExperiment({ runDir: dir, system: system(fail), items: ITEMS, gold: (q) => q.answer, makeContext: ctx, config: { system: 'acal' }, seed: 13 });
  return { id: name, dir, root, kind: 'run', system: 'acal', items: ITEMS.length, correct: 0, graphs: 0 };
}

describe('compare: failed items among the shared ones', () => {
  it('text and JSON name how many shared items each run failed and that they count as wrong', async () => {
    const a = await makeRun('acal0', () => false);
    const b = await makeRun('acalE', (i) => i !== 1);
    const c = await compareRuns(a.dir, b.dir);
    expect(c.primary.text).toMatchObject({ a: '58.3%', b: '8.3%', diff: '−50.0 pp' });
    expect(c.a.failed).toBe(0);
    expect(c.b.failed).toBe(11);
    expect(c.failedLine).toBe('failed among the shared items: A 0, B 11 (counted as wrong in accuracy)');
    const text = formatComparison(c);
    expect(text).toContain('- failed among the shared items: A 0, B 11 (counted as wrong in accuracy)');
    expect(text).not.toContain('on the items both runs scored.');
    expect(c.note).toContain('an item a run failed (an error or no prediction) counts as wrong in its accuracy');
  });

  it('the explorer: /api/compare and /api/compare/runs carry the failed counts and the line the page prints', async () => {
    const a = await makeRun('acal0', () => false);
    const b = await makeRun('acalE', (i) => i !== 1);
    const pair = await compareRunsView(a, b);
    expect(pair.failed).toEqual({ a: 0, b: 11 });
    expect(pair.failedLine).toBe('failed among the shared items: A 0, B 11 (counted as wrong in accuracy)');
    const many = await compareManyRuns([a, b]);
    expect(many.pairs[0]).toMatchObject({ failed: { a: 0, b: 11 }, failedLine: pair.failedLine });
    expect(many.note).toBe(pair.note);
  });
});
