/**
 * What a run directory guarantees under hostile content and crashes: passages that look like
 * credentials stay valid, unchanged JSON; an API key never reaches disk; temp files a killed run
 * left are removed; results.jsonl holds one line per item and is read through its schema.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLogLevel } from '../core/log.js';
import { clearSecrets, registerSecret } from '../core/secrets.js';
import { readRun } from './report/read-run.js';
import { readResults, resultsPath, tracePath, tracesDir } from './run-dir.js';
import { runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

interface Q {
  id: string;
  passage: string;
  answer: string;
}

const ITEMS: Q[] = [
  { id: 'q1', passage: 'The settings file read apikey="demo" and "api_key": "x", } { \\ end.', answer: 'A' },
  { id: 'q2', passage: 'Bearer tokens like Bearer abcdefghijkl appear in logs quoted in the record.', answer: 'B' },
  { id: 'q3', passage: 'A plain passage about consideration.', answer: 'C' },
];
const KEY = 'sk-proj-Zq81x7Yt3LmN0pQrS';

/** Echoes the passage (and, as a bug would, the key) into its trace; answers the gold letter. */
const echo: AgentSystem<Q> = async (q) => ({
  prediction: q.answer,
  trace: { passage: q.passage, headers: { authorization: `Bearer ${KEY}` }, note: `used ${KEY}` },
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-safety-'));
  setLogLevel('silent');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  clearSecrets();
  setLogLevel('info');
});

const run = (system: AgentSystem<Q> = echo) =>
  runExperiment({
    runDir: dir,
    system,
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
    config: { system: 'echo' },
    seed: 1,
  });

describe('run directory safety', () => {
  it('a passage holding apikey="demo" is written as valid, unchanged JSON; the run finishes and resumes', async () => {
    registerSecret(KEY);
    const r = await run();
    expect(r).toMatchObject({ ran: 3, failed: 0 });
    for (const q of ITEMS) {
      const text = readFileSync(tracePath(dir, q.id), 'utf8');
      const t = JSON.parse(text);
      expect(t.passage).toBe(q.passage);
      expect(t.headers.authorization).toBe('***');
      expect(t.note).toBe('used ***');
      expect(text).not.toContain(KEY);
    }
    expect(await run()).toMatchObject({ ran: 0, skipped: 3 });
    expect((await readRun(dir)).traces.size).toBe(3);
  });

  it('removes traces/*.tmp-<pid> left by a dead process, keeps a live one', async () => {
    await run();
    const dead = join(tracesDir(dir), 'q1.json.tmp-999999');
    const live = join(tracesDir(dir), `q2.json.tmp-${process.pid}`);
    const deadCfg = join(dir, 'config.json.tmp-999998');
    for (const f of [dead, live, deadCfg]) writeFileSync(f, '{"half":');
    await run();
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(deadCfg)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(readdirSync(tracesDir(dir)).filter((n) => n.includes('.tmp-'))).toEqual([`q2.json.tmp-${process.pid}`]);
  });

  it('superseded lines (an older run format) collapse to one line per item on resume; the last line wins', async () => {
    await run();
    const lines = readFileSync(resultsPath(dir), 'utf8');
    appendFileSync(resultsPath(dir), lines.split('\n')[0].replace('"correct":true', '"correct":false') + '\n');
    expect((await readResults(dir)).records).toHaveLength(4);
    expect((await readRun(dir)).results).toHaveLength(3);
    await run();
    const after = (await readResults(dir)).records;
    expect(after.map((r) => r.id).sort()).toEqual(['q1', 'q2', 'q3']);
    expect(after.find((r) => r.id === 'q1')!.correct).toBe(false);
  });

  it("a refused resume (other seed) leaves failed items' lines in place", async () => {
    const flaky: AgentSystem<Q> = async (q) =>
      q.id === 'q2' ? { prediction: null, trace: {}, error: 'LLM_REQUEST_FAILED: HTTP 500' } : echo(q, undefined as never);
    await run(flaky);
    const before = readFileSync(resultsPath(dir), 'utf8');
    await expect(
      runExperiment({
        runDir: dir,
        system: echo,
        items: ITEMS,
        gold: (q) => q.answer,
        makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
        config: { system: 'echo' },
        seed: 2,
      }),
    ).rejects.toThrow(/seed 1, not 2/);
    expect(readFileSync(resultsPath(dir), 'utf8')).toBe(before);
    expect(await run()).toMatchObject({ ran: 1, retried: 1, skipped: 2 });
  });

  it('a results line of the wrong shape is an error naming the line and the field', async () => {
    await run();
    const text = readFileSync(resultsPath(dir), 'utf8').split('\n');
    text[1] = text[1].replace(/"ms":\d+/, '"ms":"slow"');
    writeFileSync(resultsPath(dir), text.join('\n'));
    await expect(readResults(dir)).rejects.toThrow(/line 2 is not a valid result record \(field "ms"/);
  });

  it('a system whose trace breaks its schema fails that item (named), not the run', async () => {
    const { registerTraceSchema, baseTraceSchema } = await import('./records.js');
    const { z } = await import('zod');
    registerTraceSchema('echo-strict', baseTraceSchema.extend({ passage: z.number() }) as never);
    const r = await runExperiment({
      runDir: dir,
      system: echo,
      items: ITEMS,
      gold: (q) => q.answer,
      makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
      config: { system: 'echo-strict' },
      seed: 1,
    });
    expect(r.failed).toBe(3);
    expect(r.results[0].error).toMatch(/RUN_INVALID: .*trace of item "q\d" does not match its schema: field "passage"/);
    expect(JSON.parse(readFileSync(tracePath(dir, 'q1'), 'utf8')).runner.correct).toBe(false);
  });
});
