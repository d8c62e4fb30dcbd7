/**
 * Issue 27, item 5: runs that replay. A run of each of the five systems is recorded against the
 * contract-fuzzing server (random replies: succeeded and failed items, tool loops, abstentions),
 * with two items at a time; then the run is replayed with a model that has no endpoint at all
 * (`replayFrom`): results.jsonl must be byte-identical, and the replay's llm/ shows the same calls
 * in the explorer's inspector. The built CLI does the same as a child process
 * (`lexcase run case … --replay RUN_DIR`), with an API key set for the recording that must appear
 * nowhere in the run dir; a replay with other flags, or into the recorded dir, is refused.
 *
 * Issue 36, item 9: a replay verifies content. The built CLI records a CASE run, then replays
 * copies of it in which one line of llm/<item>.jsonl was edited — a juror's vote (B → A), a reply's token
 * usage, the stored request text — or written without its hashes: each replay is refused
 * (LLM_RECORDING_ALTERED) naming the file and line, before any item runs, and the unedited copy
 * replays byte for byte. Before, every one of those edits replayed without a word.
 */
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readInspectorCalls } from '../eval/llm-exchanges.js';
import { contractFuzz } from './support/contract-fuzz-server.js';
import { mixedIndexFixture, modelOn, runSystem, SENSIBLE, SYSTEMS } from './support/five-systems.js';
import { schemaConstrained, startScriptedServer } from './support/scripted-openai-server.js';
import { ensureBuilt, isolatedEnv, lexcase } from './support/spawn-cli.js';

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
          const calls = (await readInspectorCalls(dir, id))?.exchanges.map((c) =>
            JSON.stringify({ stage: c.stage, error: c.error, reply: c.reply, ms: c.ms, tokens: c.tokens }),
          );
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
  beforeAll(() => ensureBuilt(), 600_000);
  const home = isolatedEnv();
  const cli = (args: string[], env: Record<string, string>) =>
    lexcase(args, { cwd: fx.dir, env: { ...home, XDG_CACHE_HOME: join(fx.dir, 'cache'), ...env }, timeoutMs: 300_000 });

  it('records a CASE run (redacted: the API key is nowhere in the run dir) and replays it byte for byte; other flags are refused', async () => {
    const srv = await startScriptedServer(contractFuzz({ seed: 8 }));
    const recorded = join(fx.dir, 'cli-rec');
    const flags = ['run', 'case', '--index', fx.index.dir, '--limit', '2', '--jurors', '3', '--max-steps', '3'];
    try {
      const r = await cli(['--json', ...flags, '--run-dir', recorded], {
        LEXCASE_LLM_BASE_URL: srv.url,
        LEXCASE_LLM_MODEL: 'scripted',
        LEXCASE_LLM_API_KEY: KEY,
      });
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

describe('lexcase run … --replay refuses an edited recording, naming the file and line (the built CLI)', () => {
  beforeAll(() => ensureBuilt(), 600_000);
  const flags = () => ['run', 'case', '--index', fx.index.dir, '--limit', '2', '--jurors', '3', '--max-steps', '3'];
  type Line = { stage?: string; reply?: unknown; request: { messages: { role: string; content: unknown }[] }; hash?: unknown };

  /** A copy of `recorded` whose llm/ file line (1-based) `edit` rewrote; returns the copy, the file and the line. */
  function editedCopy(recorded: string, name: string, pick: (x: Line) => boolean, edit: (line: string) => string): { dir: string; file: string; line: number } {
    const dir = join(fx.dir, `edited-${name}`);
    cpSync(recorded, dir, { recursive: true });
    for (const f of readdirSync(join(dir, 'llm'))
      .filter((f) => f.endsWith('.jsonl'))
      .sort()) {
      const file = join(dir, 'llm', f);
      const lines = readFileSync(file, 'utf8').split('\n');
      const i = lines.findIndex((l) => l.trim() && pick(JSON.parse(l) as Line));
      if (i < 0) continue;
      const changed = edit(lines[i]);
      // (a line without hashes is the same line in a recording made before they were written)
      if (name !== 'no-hash') expect(changed, `${name}: the edit changed nothing`).not.toBe(lines[i]);
      lines[i] = changed;
      writeFileSync(file, lines.join('\n'));
      return { dir, file, line: i + 1 };
    }
    throw new Error(`${name}: no line to edit`);
  }

  it('a juror vote B → A, a token count, the request text, a line without hashes: each refused with file:line; the unedited copy replays', async () => {
    const srv = await startScriptedServer(schemaConstrained(SENSIBLE.case()));
    const recorded = join(fx.dir, 'built-rec');
    try {
      const r = await lexcase(['--json', ...flags(), '--run-dir', recorded], {
        cwd: fx.dir,
        env: isolatedEnv({ LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' }),
        timeoutMs: 300_000,
      });
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
    } finally {
      await srv.close();
    }
    const replay = (from: string, name: string) =>
      lexcase(['--json', ...flags(), '--replay', from, '--run-dir', join(fx.dir, `replay-${name}`)], { cwd: fx.dir, env: isolatedEnv(), timeoutMs: 300_000 });

    const control = await replay(recorded, 'control');
    expect(control.code, control.stderr.slice(-2000)).toBe(0);
    expect(Buffer.compare(results(join(fx.dir, 'replay-control')), results(recorded))).toBe(0);

    const juror = (x: Line) => /^juror /.test(x.stage ?? '') && JSON.stringify(x.reply).includes('\\"vote\\":\\"B\\"');
    const edits = [
      editedCopy(recorded, 'vote', juror, (l) => l.replaceAll('\\"vote\\":\\"B\\"', '\\"vote\\":\\"A\\"')),
      editedCopy(
        recorded,
        'usage',
        (x) => JSON.stringify(x.reply).includes('"promptTokens":'),
        (l) => l.replace(/"promptTokens":\d+/, '"promptTokens":1'),
      ),
      editedCopy(
        recorded,
        'request',
        (x) => x.request.messages.some((m) => m.role === 'user'),
        (l) => {
          const x = JSON.parse(l) as Line;
          const m = x.request.messages.find((m) => m.role === 'user')!;
          m.content = `${String(m.content)} Ignore the evidence.`;
          return JSON.stringify(x);
        },
      ),
      editedCopy(
        recorded,
        'no-hash',
        () => true,
        (l) => {
          const { hash: _h, ...x } = JSON.parse(l) as Line;
          return JSON.stringify(x);
        },
      ),
    ];
    const why = ['the recorded reply', 'the recorded reply', 'the recorded request', 'has no content hash'];
    for (const [i, e] of edits.entries()) {
      const name = ['vote', 'usage', 'request', 'no-hash'][i];
      const r = await replay(e.dir, name);
      expect(r.code, `${name}: ${r.stderr.slice(-1000)}`).not.toBe(0);
      expect(r.stderr, name).toContain(`${e.file}:${e.line}: `);
      expect(r.stderr, name).toContain(why[i]);
      // refused before any item ran
      expect(existsSync(join(fx.dir, `replay-${name}`, 'results.jsonl')) ? results(join(fx.dir, `replay-${name}`)).length : 0, name).toBe(0);
    }
  }, 600_000);
});
