/**
 * A comparison pairs only the ids both runs hold for the same item: a run over a relabelled copy of
 * hearsay (some gold labels inverted) is compared on the items whose labels agree, the rest are
 * counted in a line the text, --json and the explorer print; with every label inverted there is
 * nothing to compare. A run that records item checksums against one that does not (an older
 * lexcase) is compared with a warning that those items' content is unchecked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLegalBenchTask } from '../../corpora/legalbench.js';
import type { TaskExample } from '../../corpora/types.js';
import { compareRunsView } from '../../web/server/compare-api.js';
import { compareManyRuns } from '../../web/server/compare-runs-api.js';
import { listRuns } from '../../web/server/runs.js';
import { contextFrom, runExperiment } from '../runner.js';
import type { AgentSystem } from '../types.js';
import { compareRuns, formatComparison } from './compare.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-compare-pairs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const flip = (label: string) => (label === 'Yes' ? 'No' : 'Yes');
// answers "No": right on some hearsay items, wrong on others
const system: AgentSystem<TaskExample> = async () => ({ prediction: 'No', trace: {} });
const run = (name: string, items: TaskExample[], gold: (x: TaskExample) => string, itemContent?: (x: TaskExample) => unknown) =>
  runExperiment({
    runDir: join(dir, name),
    system,
    items,
    gold,
    itemContent,
    makeContext: contextFrom(),
    config: { system: 'acal/sp', task: 'hearsay', split: 'test' },
    seed: 13,
  });

describe('compare pairs one id only where both runs hold the same item', () => {
  it('leaves out the items a relabelled copy gives another gold label, and says so on the text, --json and the explorer', async () => {
    const items = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 12);
    const relabelled = new Set(items.slice(0, 4).map((x) => x.id));
    await run('a', items, (x) => x.label);
    await run('b', items, (x) => (relabelled.has(x.id) ? flip(x.label) : x.label));

    const c = await compareRuns(join(dir, 'a'), join(dir, 'b'));
    expect(c).toMatchObject({ shared: 8, different: 4, unchecked: 0, onlyA: 0, onlyB: 0 });
    expect(c.primary.n).toBe(8);
    const first = items[0];
    expect(c.pairingLines).toEqual([
      expect.stringContaining(
        `not compared: 4 items both runs hold under one id are different items in each (another gold label: 4: e.g. ${first.id} gold A "${first.label}", B "${flip(first.label)}";`,
      ),
    ]);
    expect(formatComparison(c)).toContain(`# Paired comparison (B − A) on 8 shared items`);
    expect(formatComparison(c)).toContain(`- ${c.pairingLines[0]}`);

    // the explorer's pair view and its N-run view say the same, and list no left-out item as differing
    const runs = await listRuns(dir);
    const entry = (id: string) => runs.find((r) => r.id === id)!;
    const view = await compareRunsView(entry('a'), entry('b'));
    expect(view).toMatchObject({ shared: 8, different: 4, pairingLines: c.pairingLines });
    expect(view.differ.map((d) => d.id).filter((id) => relabelled.has(id))).toEqual([]);
    expect((await compareManyRuns([entry('a'), entry('b')])).pairs[0]).toMatchObject({ shared: 8, pairingLines: c.pairingLines });
  });

  it('refuses when every shared id is another item (every label of the copy inverted): nothing to compare', async () => {
    const items = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 12);
    await run('a', items, (x) => x.label);
    await run('b', items, (x) => flip(x.label));
    await expect(compareRuns(join(dir, 'a'), join(dir, 'b'))).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/12 items both runs hold under one id are different items in each .*nothing to compare; compare runs of the same items/),
    });
  });

  it('compares items one run records no checksum for (an older lexcase) by id and gold, with a warning naming that run', async () => {
    const items = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 12);
    await run(
      'a',
      items,
      (x) => x.label,
      (x) => x.text,
    );
    await run('b', items, (x) => x.label);
    const c = await compareRuns(join(dir, 'a'), join(dir, 'b'));
    expect(c).toMatchObject({ shared: 12, different: 0, unchecked: 12 });
    expect(c.pairingLines).toEqual([
      'warning: the content of 12 items compared is not checked: B (written by an older lexcase) records no item checksum, so those items are paired by id and gold label only',
    ]);
  });
});
