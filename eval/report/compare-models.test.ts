/**
 * Two runs asking the same model name, one of which was answered by another model (a router's
 * fallback, recorded per item as `replyModels`): compare says so in a pairing line, on the text,
 * --json and the explorer, instead of showing the figures side by side as if of one model.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadLegalBenchTask } from '../../corpora/legalbench.js';
import type { TaskExample } from '../../corpora/types.js';
import { compareRunsView } from '../../web/server/compare-api.js';
import { listRuns } from '../../web/server/runs.js';
import { contextFrom, runExperiment } from '../runner.js';
import type { AgentSystem } from '../types.js';
import { compareRuns, formatComparison } from './compare.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-compare-models-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const system: AgentSystem<TaskExample> = async () => ({ prediction: 'No', trace: {} });
const run = (name: string, items: TaskExample[]) =>
  runExperiment({
    runDir: join(dir, name),
    system,
    items,
    gold: (x) => x.label,
    makeContext: contextFrom(),
    config: { system: 'acal/sp', task: 'hearsay', split: 'test', model: 'gpt-4o' },
    seed: 13,
  });

/** Each item's line as the runner records one LLM call: by `named` when given (a reply naming another model). */
function recordCalls(runDir: string, named?: string) {
  const file = join(runDir, 'results.jsonl');
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const out = lines.map((l) => {
    const r = JSON.parse(l);
    r.tokens = { input: 120, output: 4, total: 124, calls: 1, cached: 0 };
    if (named) r.replyModels = { [named]: 1 };
    return JSON.stringify(r);
  });
  writeFileSync(file, `${out.join('\n')}\n`);
}

describe('compare of two runs asking one model name', () => {
  it("says when one run's replies named another model (a router's fallback), on the text, --json and the explorer", async () => {
    const items = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 10);
    await run('a', items);
    await run('b', items);
    recordCalls(join(dir, 'a'));
    recordCalls(join(dir, 'b'), 'llama-3.1-8b-instruct');

    const c = await compareRuns(join(dir, 'a'), join(dir, 'b'));
    const line = c.pairingLines.find((l) => l.includes('replies named different models'));
    expect(line).toBe(
      "the two runs' replies named different models — A's named only the model asked; B's named llama-3.1-8b-instruct (10 of 10 LLM calls): their figures are not of one model",
    );
    expect(formatComparison(c)).toContain(`- ${line}`);
    expect(JSON.parse(JSON.stringify(c)).pairingLines).toContain(line);

    const runs = await listRuns(dir);
    const [A, B] = ['a', 'b'].map((n) => runs.find((r) => r.dir === join(dir, n))!);
    expect((await compareRunsView(A, B)).pairingLines).toContain(line);
  });

  it('gives no such line when both runs were answered by the model asked', async () => {
    const items = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 10);
    await run('a', items);
    await run('b', items);
    recordCalls(join(dir, 'a'));
    recordCalls(join(dir, 'b'));
    const c = await compareRuns(join(dir, 'a'), join(dir, 'b'));
    expect(c.pairingLines.filter((l) => l.includes('replies named'))).toEqual([]);
  });
});
