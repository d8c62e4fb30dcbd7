/**
 * A resume that fails before its first item, as a user meets it: the built CLI (`run baseline --mode
 * llm-only`, one model call per item) in a child process against a local OpenAI-compatible server that
 * counts every request it gets (GET /models too). The run dir is compared byte for byte before and after.
 *
 * - `--model other` on a run dir made with `scripted`: refused naming both, and the endpoint gets no
 *   request. Before, the preflight (GET /models) was sent first and the refusal came after it.
 * - a cut-off last line in results.jsonl and a resume refused for its `--seed`: the line stays, and the
 *   next resume records it (`cutTail`). Before, the refused resume truncated it and said "cut off, … runs
 *   again" of an item it did not run; the next resume recorded no cut.
 * - an attempt killed (kill -9) with its item's request sent, then a resume whose key the endpoint
 *   refuses (HTTP 401): the run dir is as the kill left it (the request journal under-way/ too), and the
 *   resume with the right key records the killed attempt's request. (The refusal comes from the
 *   preflight made inside the run, after the resume has rewritten config.json and taken the journal:
 *   both are put back.)
 * - a larger --limit whose preflight is refused (HTTP 401): no "growing" line. Before, it said the run dir
 *   grew ("growing DIR: limit 1 → 2") and then failed, the run dir unchanged.
 * - Ctrl-C while the resume's preflight waits on the endpoint: the run dir as it was, and the message
 *   names the items saved. Before, it said "before any item was saved: nothing is in a results.jsonl
 *   yet" of a run dir holding 2.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase, startLexcase } from '../../tests/support/spawn-cli.js';
import { schemaFollowing, startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { treeOf } from '../../tests/support/tree-snapshot.js';

let dir: string;
let srv: ScriptedServer;
let env: Record<string, string | undefined>;
/** A chat request the server holds until released (the kill test). */
let hold: { reached: () => void; release: Promise<void> } | undefined;
const script = schemaFollowing();

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-resume-refused-'));
  srv = await startScriptedServer(
    async (r) => {
      const h = hold;
      if (h) {
        hold = undefined;
        h.reached();
        await h.release;
      }
      return script(r);
    },
    { models: ['scripted', 'other'], apiKey: 'sk-right' },
  );
  env = isolatedEnv({ LEXCASE_PROGRESS: 'off', LEXCASE_LLM_API_KEY: 'sk-right' });
}, 300_000);

afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

const sent = () => srv.requests.length + srv.modelListings;
const args = (runDir: string, ...more: string[]) => ['run', 'baseline', '--mode', 'llm-only', '--no-cache', '--run-dir', runDir, ...more];
const run = (runDir: string, ...more: string[]) => lexcase(args(runDir, ...more), { cwd: dir, env, timeoutMs: 120_000 });
const runWithKey = (key: string, runDir: string, ...more: string[]) =>
  lexcase(args(runDir, ...more), { cwd: dir, env: { ...env, LEXCASE_LLM_API_KEY: key }, timeoutMs: 120_000 });
const config = (runDir: string) =>
  JSON.parse(readFileSync(join(dir, runDir, 'config.json'), 'utf8')) as {
    resumes?: { cutTail?: { bytes: number } }[];
    interrupts?: { signal: string; items: number; requests: number }[];
  };

describe('a resume that fails before its first item', () => {
  it('with another --model: refused naming both models before any request reaches the endpoint, the run dir as it was', async () => {
    expect((await run('model', '--limit', '1', '--endpoint', srv.url, '--model', 'scripted')).code).toBe(0);
    const before = treeOf(join(dir, 'model'));
    const n = sent();
    const r = await run('model', '--limit', '2', '--endpoint', srv.url, '--model', 'other');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/was started with a different config \(field "model" differs: model\.model "scripted" recorded, "other" now\)/);
    expect(sent()).toBe(n); // before: 1 (the preflight's GET /models)
    expect(treeOf(join(dir, 'model'))).toEqual(before);
  }, 120_000);

  it('refused for its --seed: a cut-off last line of results.jsonl stays, and the next resume records it', async () => {
    expect((await run('cut', '--limit', '1', '--endpoint', srv.url, '--model', 'scripted')).code).toBe(0);
    appendFileSync(join(dir, 'cut', 'results.jsonl'), '{"id":"bar'); // a write stopped midway
    const before = treeOf(join(dir, 'cut'));
    const refused = await run('cut', '--limit', '2', '--endpoint', srv.url, '--model', 'scripted', '--seed', '14');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/was started with seed 13, not 14/);
    expect(refused.stderr).not.toMatch(/cut off/); // before: "cut off, the item is not counted as done and runs again"
    expect(treeOf(join(dir, 'cut'))).toEqual(before); // before: results.jsonl truncated
    const resumed = await run('cut', '--limit', '2', '--endpoint', srv.url, '--model', 'scripted');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/results\.jsonl ended in a truncated last line \(10 bytes\)/);
    expect(config('cut').resumes?.at(-1)?.cutTail).toMatchObject({ bytes: 10 });
  }, 120_000);

  it('killed (kill -9) with a request sent, then resumed with a key the endpoint refuses: the run dir as the kill left it; resumed with the right one, the request is counted', async () => {
    expect((await run('killed', '--limit', '1', '--endpoint', srv.url, '--model', 'scripted')).code).toBe(0);
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const reached = new Promise<void>((r) => (hold = { reached: r, release: released }));
    const s = startLexcase(args('killed', '--limit', '2', '--endpoint', srv.url, '--model', 'scripted'), { cwd: dir, env });
    await reached;
    expect((await s.stop('SIGKILL')).signal).toBe('SIGKILL');
    release();
    expect(existsSync(join(dir, 'killed', 'under-way'))).toBe(true);
    // all but the killed process's lock (a dead process's lock is taken over and released: eval/run-dir-guard.ts)
    const { 'run.lock': _lock, ...before } = treeOf(join(dir, 'killed'));
    const refused = await runWithKey('sk-wrong', 'killed', '--limit', '2', '--endpoint', srv.url, '--model', 'scripted');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the API key \(HTTP 401/);
    expect(treeOf(join(dir, 'killed'))).toEqual(before);
    const resumed = await run('killed', '--limit', '2', '--endpoint', srv.url, '--model', 'scripted');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(config('killed').interrupts).toMatchObject([{ signal: 'killed', items: 1, requests: 1 }]);
    expect(existsSync(join(dir, 'killed', 'under-way'))).toBe(false);
  }, 120_000);

  it('a larger --limit whose preflight the endpoint refuses (HTTP 401): no "growing" line (the run dir did not grow); with the right key it grows and says so', async () => {
    expect((await run('grow', '--limit', '1', '--endpoint', srv.url, '--model', 'scripted')).code).toBe(0);
    const before = treeOf(join(dir, 'grow'));
    const refused = await runWithKey('sk-wrong', 'grow', '--limit', '2', '--endpoint', srv.url, '--model', 'scripted');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the API key \(HTTP 401/);
    expect(refused.stderr).not.toMatch(/growing/); // before: "growing grow: limit 1 → 2, 1 new item to run", then the refusal
    expect(treeOf(join(dir, 'grow'))).toEqual(before);
    const grown = await run('grow', '--limit', '2', '--endpoint', srv.url, '--model', 'scripted');
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stderr).toMatch(/growing \S*grow: .*1 new item to run/);
  }, 120_000);

  it('stopped by Ctrl-C in its preflight: the run dir as it was, and the message names the items it holds (not "nothing is in a results.jsonl yet")', async () => {
    // the endpoint the run was made with, its GET /models held while `holdModels` (chat requests go to the scripted server)
    let holdModels = false;
    let held!: () => void;
    const modelsHeld = new Promise<void>((r) => (held = r));
    const front = createServer(async (req, res) => {
      if (req.method === 'GET' && req.url?.endsWith('/models') && holdModels) return held(); // never answered
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const r = await fetch(`${srv.url}${req.url!.replace(/^\/v1/, '')}`, {
        method: req.method,
        headers: { authorization: String(req.headers.authorization ?? ''), 'content-type': 'application/json' },
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      });
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(Buffer.from(await r.arrayBuffer()));
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`;
    try {
      expect((await run('sigint', '--limit', '2', '--endpoint', url, '--model', 'scripted')).code).toBe(0);
      const before = treeOf(join(dir, 'sigint'));
      holdModels = true;
      const s = startLexcase(args('sigint', '--limit', '3', '--endpoint', url, '--model', 'scripted'), { cwd: dir, env });
      await modelsHeld;
      const r = await s.stop('SIGINT');
      expect(r.code).toBe(130);
      expect(r.stderr).toMatch(/interrupted \(SIGINT\):\n {2}2 items completed and saved in sigint\/results\.jsonl; run dir: sigint\n/);
      expect(r.stderr).not.toMatch(/nothing is in a results\.jsonl yet/);
      expect(treeOf(join(dir, 'sigint'))).toEqual(before); // before: config.json with a resumes entry and limit 3 for a resume that ran nothing
    } finally {
      front.closeAllConnections();
      await new Promise((r) => front.close(r));
    }
  }, 120_000);
});
