/**
 * A system of your own (docs/runner.md: `runExperiment({ system, … })`, written in plain JS or cast)
 * whose outcome results.jsonl's schema cannot read back fails that item, naming the field, and the run
 * goes on — as a trace of the wrong shape does. Before, a metric of NaN or Infinity was written as
 * null (JSON) and every report read it as "not applicable": the item left the metric's n without a
 * word (mean 0.000 over 11 items where one was Infinity), and a numeric confidence (0.5) stopped the
 * whole run with RUN_WRITE_FAILED "cannot write the run dir … free space or fix the disk".
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLogLevel } from '../core/log.js';
import { buildReport, readRun } from './report/index.js';
import { readResults, tracePath } from './run-dir.js';
import { runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

interface Q {
  id: string;
  answer: string;
}

const ITEMS: Q[] = Array.from({ length: 12 }, (_, i) => ({ id: `q${i}`, answer: i % 3 === 0 ? 'A' : 'B' }));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-outcome-'));
  setLogLevel('silent');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  setLogLevel('info');
});

const run = (system: AgentSystem<Q>) =>
  runExperiment({
    runDir: dir,
    system,
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
    config: { system: 'my-classifier' },
    seed: 13,
  });

describe("a system's outcome that results.jsonl cannot hold", () => {
  it('a metric of Infinity or NaN fails its item naming the metric, never leaves the n as "not applicable"', async () => {
    // precision = hits / retrieved: Infinity on q2 (a bug), NaN (0/0) on q3
    const system = (async (q: Q) => {
      const i = Number(q.id.slice(1));
      return { prediction: 'B', trace: {}, metrics: { ratio: i === 2 ? 1 / 0 : i === 3 ? 0 / 0 : 0 } };
    }) as AgentSystem<Q>;
    const r = await run(system);
    expect(r.ran).toBe(12);
    const byId = new Map((await readResults(dir)).records.map((x) => [x.id, x]));
    expect(byId.get('q2')?.error).toMatch(/^RUN_INVALID: .*results\.jsonl: the result of item "q2" does not match its schema: field "metrics\.ratio"/);
    expect(byId.get('q3')?.error).toMatch(/field "metrics\.ratio"/);
    expect(byId.get('q2')?.correct).toBe(false);
    expect(byId.get('q4')).toMatchObject({ prediction: 'B', correct: true, metrics: { ratio: 0 } });
    // the report says both: in Failures, and the metric's n is the 10 items that reported it
    const report = await buildReport(await readRun(dir));
    expect(report.markdown).toMatch(/2 of 12 items failed/);
    expect(report.markdown).toMatch(/\| ratio +\| [^|]+\| 10 \|/);
    expect(JSON.parse(readFileSync(tracePath(dir, 'q2'), 'utf8')).runner.error).toMatch(/metrics\.ratio/);
  });

  it('a numeric confidence fails its item naming the field; the run goes on and never blames the disk', async () => {
    const system = (async (q: Q) => ({ prediction: 'B', confidence: q.id === 'q1' ? 0.5 : 'high', trace: {} })) as unknown as AgentSystem<Q>;
    const r = await run(system);
    expect(r.ran).toBe(12);
    expect(r.failed).toBe(1);
    const q1 = (await readResults(dir)).records.find((x) => x.id === 'q1');
    expect(q1?.error).toMatch(/the result of item "q1" does not match its schema: field "confidence"/);
    expect(q1?.error).not.toMatch(/free space/);
    expect(q1?.confidence).toBeUndefined();
  });
});
