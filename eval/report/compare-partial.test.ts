/**
 * A comparison says when a run holds fewer items than it planned: before, `lexcase compare` of a
 * whole 12-item run and one stopped after 5 (both `--limit 12`, so no config difference shows it)
 * printed "Paired comparison (B − A) on 5 shared items … not compared: 7 items only in A" with no
 * word that B had stopped, and of a run still being written the same, though its figures change
 * as it runs; `lexcase report` of B said "partial: 5 of 12 planned items". Now every surface
 * (text, --json, the explorer's compare views) carries "B is partial: 5 of 12 planned items …" or
 * "B is in progress: … is still writing it"; and the line of items one run lacks names some of
 * them ("7 items only in A (e.g. hearsay-test-5, …)"), where it gave the count alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
const right: AgentSystem<Item> = async (item) => ({ prediction: item.answer, trace: {} });

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-compare-partial-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const entry = (name: string): RunEntry => ({ id: name, dir: join(root, name), root, kind: 'run', system: 'acal', items: ITEMS.length, correct: 0, graphs: 0 });
const run = (name: string, system: AgentSystem<Item>, signal?: AbortSignal) =>
  runExperiment({ runDir: join(root, name), system, items: ITEMS, gold: (q) => q.answer, makeContext: ctx, config: { system: 'acal' }, seed: 13, signal });

describe('compare: a run with fewer items than it planned', () => {
  it('a run stopped after 5 of its 12 items is named partial in the text, --json and the explorer', async () => {
    await run('whole', right);
    const stop = new AbortController();
    let done = 0;
    // stopped (Ctrl-C) once 5 items are done: the 6th is not recorded
    await run(
      'stopped',
      async (item) => {
        if (++done > 5) {
          stop.abort();
          throw new Error('interrupted');
        }
        return { prediction: item.answer, trace: {} };
      },
      stop.signal,
    );
    const c = await compareRuns(entry('whole').dir, entry('stopped').dir);
    expect(c.shared).toBe(5);
    expect(c.onlyA).toBe(7);
    expect(c.b).toMatchObject({ n: 5, planned: 12, partial: true, inProgress: false });
    expect(c.a).toMatchObject({ n: 12, planned: 12, partial: false });
    const line =
      'B is partial: 5 of 12 planned items (the run stopped before the rest); this comparison is over the items it finished — resume it to compare the rest';
    expect(c.pairingLines).toEqual([line]);
    expect(formatComparison(c)).toContain(`- ${line}`);
    // which items are left out, not only how many (before: "not compared: 7 items only in A, 0 only in B")
    const only = 'not compared: 7 items only in A (e.g. hearsay-test-5, hearsay-test-6, hearsay-test-7, …), 0 only in B';
    expect(c.onlyLine).toBe(only);
    expect(formatComparison(c)).toContain(`- ${only}\n`);
    const pair = await compareRunsView(entry('whole'), entry('stopped'));
    expect(pair.pairingLines).toEqual([line]);
    expect(pair.onlyLine).toBe(only);
    const many = await compareManyRuns([entry('whole'), entry('stopped')]);
    expect(many.pairs[0]).toMatchObject({ shared: 5, pairingLines: [line] });
  });

  it('a run still being written is named in progress, with the process writing it', async () => {
    await run('whole', right);
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let reached!: () => void;
    const atSeventh = new Promise<void>((r) => {
      reached = r;
    });
    let done = 0;
    const live = run('live', async (item) => {
      if (++done === 7) {
        reached();
        await gate;
      }
      return { prediction: item.answer, trace: {} };
    });
    await atSeventh;
    try {
      const c = await compareRuns(entry('whole').dir, entry('live').dir);
      expect(c.shared).toBe(6);
      expect(c.b).toMatchObject({ n: 6, planned: 12, partial: true, inProgress: true });
      expect(c.pairingLines).toHaveLength(1);
      expect(c.pairingLines[0]).toMatch(
        new RegExp(
          `^B is in progress: 6 of 12 planned items so far \\(.*, pid ${process.pid}, since .*, is still writing it\\); this comparison is over the items done so far and changes as it runs$`,
        ),
      );
      const pair = await compareRunsView(entry('whole'), entry('live'));
      expect(pair.pairingLines).toEqual(c.pairingLines);
    } finally {
      release();
      await live;
    }
    // done: whole again, nothing said
    const after = await compareRuns(entry('whole').dir, entry('live').dir);
    expect(after.shared).toBe(12);
    expect(after.pairingLines).toEqual([]);
  });
});
