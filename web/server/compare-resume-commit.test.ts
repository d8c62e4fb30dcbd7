/**
 * The explorer's compare views (/api/compare, /api/compare/runs) name the lexcase commits a run's items ran under as
 * `lexcase compare` does, a resume's included: a run started at one commit and resumed at another
 * holds items of both, and its figures beside another run's can differ because the code did.
 * Before, the explorer read config.json without its `resumes`, so its config differences left out
 * the "lexcase commit" line `lexcase compare` printed for the same two runs, and the N-run view's
 * key-by-key differences named no lexcase version or commit at all.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareRuns } from '../../eval/report/compare.js';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import type { AgentSystem } from '../../eval/types.js';
import { compareRunsView } from './compare-api.js';
import { compareManyRuns } from './compare-runs-api.js';
import type { RunEntry } from './runs.js';

interface Item {
  id: string;
  answer: string;
}
// 12 hearsay items, as `lexcase run acal --task hearsay --limit 12`
const ITEMS: Item[] = Array.from({ length: 12 }, (_, i) => ({ id: `hearsay-test-${i}`, answer: i % 3 === 0 ? 'Yes' : 'No' }));
const answers: AgentSystem<Item> = async (item) => ({ prediction: Number(item.id.split('-').pop()) < 8 ? item.answer : 'Yes', trace: {} });
const OTHER_COMMIT = '0123456789abcdef0123456789abcdef01234567';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-compare-resume-commit-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function run(name: string, items: Item[]): Promise<RunEntry> {
  const dir = join(root, name);
  await runExperiment({
    runDir: dir,
    system: answers,
    items,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'acal' },
    seed: 13,
    lexcaseSystem: 'acal',
  });
  return { id: name, dir, root, kind: 'run', system: 'acal', items: items.length, correct: 0, graphs: 0 };
}

describe('/api/compare: the commits of a resumed run', () => {
  it('names the commit a resume ran under, as `lexcase compare` does', async () => {
    const a = await run('whole', ITEMS);
    // B: 6 items, then resumed for all 12 — by a lexcase at another commit
    await run('resumed', ITEMS.slice(0, 6));
    const b = await run('resumed', ITEMS);
    const file = join(b.dir, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(config.resumes).toHaveLength(1);
    config.resumes[0].gitSha = OTHER_COMMIT;
    writeFileSync(file, JSON.stringify(config, null, 2));

    const cli = await compareRuns(a.dir, b.dir);
    const commit = cli.configDiff['lexcase commit'] as [string, string];
    expect(commit[1]).toContain(OTHER_COMMIT);
    const view = await compareRunsView(a, b);
    expect((view.configDiff as Record<string, unknown>)['lexcase commit']).toEqual(commit);
    // the N-run view's key-by-key differences name them too
    const many = await compareManyRuns([a, b]);
    expect(many.configDiff).toContainEqual({ key: 'lexcase commit', values: commit });
  });
});
