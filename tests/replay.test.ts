/**
 * Issue 27, item 5: runs that replay. A run of each of the five systems is recorded against the
 * contract-fuzzing server (random replies: succeeded and failed items, tool loops, abstentions),
 * with two items at a time; then the run is replayed with a model that has no endpoint at all
 * (`replayFrom`): results.jsonl must be byte-identical, and the replay's llm/ shows the same calls
 * in the explorer's inspector. The CLI does the same as a child process
 * (`lexcase run case … --replay RUN_DIR`), with an API key set for the recording that must appear
 * nowhere in the run dir; a replay with other flags, or into the recorded dir, is refused.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readInspectorCalls } from '../eval/llm-exchanges.js';
import { contractFuzz } from './support/contract-fuzz-server.js';
import { mixedIndexFixture, modelOn, runSystem, SYSTEMS } from './support/five-systems.js';
import { startScriptedServer } from './support/scripted-openai-server.js';

const run = promisify(execFile);
const N = 4;
const fx = mixedIndexFixture('replay', N);
/** A port nothing listens on: a replay that tried the network would fail. */
const NOWHERE = 'http://127.0.0.1:9/v1';



const results = (runDir: string) => readFileSync(join(runDir, 'results.jsonl'));

function filesUnder(d: string): string[] {
  return readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? filesUnder(join(d, f)) : [join(d, f)]));
}

describe('a recorded run replays with no endpoint, byte for byte', () => {
  for (const system of SYSTEMS)
    it(`${system}: the replay's results.jsonl is byte-identical to the recording's`, async () => {
      const srv = await startScriptedServer(contractFuzz({ seed: 5 }));
      const recorded = join(fx.dir, `rec-${system}`);
      try {
        await runSystem(system, { llm: modelOn(srv.url), runDir: recorded, index: fx.index, n: N, concurrency: 2 });
      } finally {
        await srv.close();
      }
      const replayed = join(fx.dir, `rep-${system}`);
      await runSystem(system, { llm: modelOn(NOWHERE, { replayFrom: recorded }), runDir: replayed, index: fx.index, n: N, concurrency: 2 });
      expect(results(replayed).toString()).toBe(results(recorded).toString());
      expect(Buffer.compare(results(replayed), results(recorded))).toBe(0);
      expect(readdirSync(join(recorded, 'llm')).filter((f) => f.endsWith('.jsonl')).length).toBeGreaterThan(0);
      expect(JSON.parse(readFileSync(join(replayed, 'config.json'), 'utf8')).replayOf).toBe(recorded);
      // the replay's own llm/ shows the same calls in the inspector: steps, errors, replies, recorded latencies and tokens
      const view = async (dir: string) => {
        const out: unknown[] = [];
        for (const line of results(dir).toString().trim().split('\n')) {
          const id = JSON.parse(line).id as string;
          // as a multiset: concurrent requests of one item (MAD's debaters, ACAL's batches) may be served in another order
          const calls = (await readInspectorCalls(dir, id))?.exchanges.map((c) => JSON.stringify({ stage: c.stage, error: c.error, reply: c.reply, ms: c.ms, tokens: c.tokens }));
          out.push({ id, calls: calls?.sort() });
        }
        return out;
      };
      const rec = await view(recorded);
      expect(rec.some((x) => (x as { calls?: unknown[] }).calls?.length)).toBe(true);
      expect(await view(replayed)).toEqual(rec);
    }, 300_000);
});

describe('lexcase run … --replay (the CLI as a child process)', () => {
  const KEY = 'sk-test-REPLAY-secret-0123456789';
  const cli = (args: string[], env: Record<string, string>) =>
    run(process.execPath, ['--import', import.meta.resolve('tsx'), join(import.meta.dirname, '../src/cli/main.ts'), ...args], {
      cwd: fx.dir,
      env: { ...process.env, LEXCASE_LLM_BASE_URL: '', LEXCASE_LLM_MODEL: '', LEXCASE_LLM_API_KEY: '', OPENAI_API_KEY: '', OPENAI_BASE_URL: '', XDG_CACHE_HOME: join(fx.dir, 'cache'), NO_COLOR: '1', ...env },
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code?: number; stdout: string; stderr: string }) => ({ code: e.code ?? 1, stdout: e.stdout, stderr: e.stderr }),
    );

  it('records a CASE run (redacted: the API key is nowhere in the run dir) and replays it byte for byte; other flags are refused', async () => {
    const srv = await startScriptedServer(contractFuzz({ seed: 8 }));
    const recorded = join(fx.dir, 'cli-rec');
    const flags = ['run', 'case', '--index', fx.index.dir, '--limit', '2', '--jurors', '3', '--max-steps', '3'];
    try {
      const r = await cli(['--json', ...flags, '--run-dir', recorded], { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_API_KEY: KEY });
      expect(r.code, r.stderr).toBe(0);
      expect(srv.requests.length).toBeGreaterThan(5);
      expect(srv.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    } finally {
      await srv.close();
    }
    for (const f of filesUnder(recorded)) expect(readFileSync(f, 'utf8').includes(KEY), f).toBe(false);

    const replayed = join(fx.dir, 'cli-rep');
    const r2 = await cli(['--json', ...flags, '--replay', recorded, '--run-dir', replayed], {});
    expect(r2.code, r2.stderr).toBe(0);
    expect(Buffer.compare(results(replayed), results(recorded))).toBe(0);

    const bad = await cli([...flags.map((f, i) => (flags[i - 1] === '--jurors' ? '5' : f)), '--replay', recorded, '--run-dir', join(fx.dir, 'cli-bad')], {});
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/was recorded with jurors = 3, this replay has 5/);
  }, 300_000);
});
