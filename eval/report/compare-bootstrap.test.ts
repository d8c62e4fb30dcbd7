/**
 * Two runs whose own reports computed their intervals with different bootstrap settings (config.bootstrap,
 * `run acal --iterations/--seed`): compare says so in a pairing line naming both settings and the one its
 * own intervals of B − A use, on the text, --json and the explorer (two-run view and the N-run page, which
 * draws each run's own intervals side by side).
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
  dir = mkdtempSync(join(tmpdir(), 'lexcase-compare-bootstrap-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const system: AgentSystem<TaskExample> = async (x) => ({ prediction: x.id.endsWith('1') ? 'Yes' : 'No', trace: {} });
const run = (name: string, items: TaskExample[], bootstrap?: { iterations?: number; seed?: number }) =>
  runExperiment({
    runDir: join(dir, name),
    system,
    items,
    gold: (x) => x.label,
    makeContext: contextFrom(),
    config: { system: 'acal/sp', task: 'hearsay', split: 'test', model: 'gpt-4o', ...(bootstrap ? { bootstrap } : {}) },
    seed: 13,
  });

describe('compare of runs whose reports used different bootstrap settings', () => {
  it('names both runs’ settings and the one its intervals of B − A use, on the text, --json and the explorer', async () => {
    const items = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 20);
    await run('a', items, { iterations: 1000, seed: 7 });
    await run('b', items, { iterations: 200 });

    const c = await compareRuns(join(dir, 'a'), join(dir, 'b'), { iterations: 500, seed: 7 });
    const line = c.pairingLines.find((l) => l.startsWith('intervals differ'));
    expect(line).toBe(
      "intervals differ: the runs' own reports computed their intervals with other bootstrap settings — A 95% of 1,000 resamples (seed 7), B 95% of 200 resamples (seed 13) (config.bootstrap): " +
        "their intervals side by side (report.md, the explorer's per-run figures) are not the same kind of figure; every interval of B − A here is of one setting for both, 95% of 500 resamples (seed 7)",
    );
    expect(formatComparison(c)).toContain(`- ${line}`);
    expect(JSON.parse(JSON.stringify(c)).pairingLines).toContain(line);

    // the explorer computes B − A with the shared settings: its line names them
    const runs = await listRuns(dir);
    const [A, B] = ['a', 'b'].map((n) => runs.find((r) => r.dir === join(dir, n))!);
    const shared = 'every interval of B − A here is of one setting for both, 95% of 2,000 resamples (seed 13)';
    expect((await compareRunsView(A, B)).pairingLines.find((l) => l.startsWith('intervals differ'))).toContain(shared);
    const many = await compareManyRuns([A, B]);
    expect(many.pairs[0]).toMatchObject({ pairingLines: [expect.stringContaining(shared)] });
  });

  it('says a run that records no settings used the shared ones, and gives no line when both runs used the same', async () => {
    const items = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 20);
    await run('a', items);
    await run('b', items, { iterations: 2000, seed: 13 });
    await run('c', items, { iterations: 300 });
    expect((await compareRuns(join(dir, 'a'), join(dir, 'b'))).pairingLines).toEqual([]);
    const c = await compareRuns(join(dir, 'a'), join(dir, 'c'));
    expect(c.pairingLines).toEqual([expect.stringContaining('A 95% of 2,000 resamples (seed 13, none recorded), B 95% of 300 resamples (seed 13)')]);
  });
});
