/**
 * A model swapped behind the same name while `lexcase run` runs, as a user meets it: the built CLI
 * (`run baseline --mode llm-only`, one model call per Bar Exam item, one item at a time) in a child
 * process against a local OpenAI-compatible server whose GET /models entry changes mid-run, the way
 * llama.cpp's `meta` does when it is restarted with another model under the same alias. The run hears
 * the identity again for each item (eval/server-identities.ts):
 *
 * - by default it stops at the first item answered under the new identity, naming both and the items
 *   recorded under the first; the items before it are kept, resumable. Before, the run went on, its
 *   4 items from two models recorded under one identity.
 * - with the response cache on, a cached reply of the first model is not served to an item heard
 *   under the second. Before, every item was served from the cache (no request reached the server).
 * - --allow-server-change goes on and records the items answered under each identity: results.jsonl
 *   (`serverIdentities`), the run's last warning, report.md's Run section and `compare`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase } from '../tests/support/spawn-cli.js';
import { schemaFollowing, startScriptedServer, type ScriptedServer, type ServerOptions } from '../tests/support/scripted-openai-server.js';

/** llama.cpp's GET /models `meta` for two models it may be started with under one alias. */
const LLAMA_8B = { n_params: 8030261248, size: 4920733696, n_ctx_train: 8192, n_vocab: 128256 };
const QWEN_7B = { n_params: 7615616512, size: 4683073536, n_ctx_train: 32768, n_vocab: 152064 };
const IDENTITY = /"scripted" \(GET \/models entry [0-9a-f]{12}\)/.source;

let dir: string;
let srv: ScriptedServer;
const opts: ServerOptions = { modelFields: { owned_by: 'llamacpp', meta: LLAMA_8B } };
/** The chat request (0-based) whose reply comes from the swapped model: the server is swapped as it answers it. */
let swapAt = Number.POSITIVE_INFINITY;
/** Chat requests the server had answered when the test began. */
let base = 0;
const script = schemaFollowing();

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-server-change-'));
  srv = await startScriptedServer((r) => {
    if (chats() - base - 1 === swapAt) opts.modelFields = { owned_by: 'llamacpp', meta: QWEN_7B };
    return script(r);
  }, opts);
}, 300_000);

afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

const chats = () => srv.requests.filter((q) => q.body?.messages).length;
const lines = (runDir: string) =>
  readFileSync(join(dir, runDir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; serverIdentities?: Record<string, number> });
const run = (env: Record<string, string | undefined>, runDir: string, ...more: string[]) =>
  lexcase(
    [
      'run',
      'baseline',
      '--mode',
      'llm-only',
      '--dataset',
      'barexam',
      '--split',
      'val',
      ...(more.includes('--limit') ? [] : ['--limit', '4']),
      '--endpoint',
      srv.url,
      '--model',
      'scripted',
      '--run-dir',
      runDir,
      ...more,
    ],
    {
      cwd: dir,
      env,
      timeoutMs: 120_000,
    },
  );
const reset = (at: number) => {
  opts.modelFields = { owned_by: 'llamacpp', meta: LLAMA_8B };
  swapAt = at;
  base = chats();
};

describe('lexcase run: the server swaps its model under the same name during the run', () => {
  it('stops at the first item answered by the swapped model, naming both identities; the items before it are kept', async () => {
    reset(1); // the second item's reply is the new model's, heard when the third item asks
    const env = isolatedEnv({ LEXCASE_PROGRESS: 'off' });
    const r = await run(env, 'stop', '--no-cache');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `the LLM server described the model otherwise during the run: item \\S+ was answered under ${IDENTITY}, the run's earlier replies under ${IDENTITY} \\(2 items recorded\\)`,
      ),
    );
    expect(r.stderr).toContain('--allow-server-change goes on');
    const recorded = lines('stop');
    expect(recorded).toHaveLength(2);
    const [first] = Object.keys(recorded[0].serverIdentities ?? {});
    expect(recorded.map((l) => l.serverIdentities)).toEqual([{ [first]: 1 }, { [first]: 1 }]);
  });

  it('with the response cache on, a cached reply of the first model is not served to an item heard under the second', async () => {
    reset(Number.POSITIVE_INFINITY);
    const env = isolatedEnv({ LEXCASE_PROGRESS: 'off' });
    expect((await run(env, 'fill')).code).toBe(0); // the cache holds the first model's 4 replies
    const before = chats();
    // swapped before the rerun's second item is heard (its GET /models listings: the preflight's, then one per item)
    let listings = 0;
    const swapped: ServerOptions = opts;
    const first = swapped.modelFields;
    Object.defineProperty(swapped, 'modelFields', {
      configurable: true,
      get: () => (++listings >= 3 ? { owned_by: 'llamacpp', meta: QWEN_7B } : first),
    });
    try {
      const r = await run(env, 'cached');
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(/the LLM server described the model otherwise during the run: item \S+ was answered under/);
      expect(chats() - before).toBe(1); // the second item asked the server: the cached reply was another model's
      expect(lines('cached')).toHaveLength(1);
    } finally {
      Object.defineProperty(swapped, 'modelFields', { configurable: true, writable: true, value: first });
    }
  });

  it('--allow-server-change goes on and records the items answered under each identity: results.jsonl, the last warning, report.md', async () => {
    reset(1);
    const env = isolatedEnv({ LEXCASE_PROGRESS: 'off' });
    const r = await run(env, 'allowed', '--no-cache', '--allow-server-change');
    expect(r.code, r.stderr).toBe(0);
    const recorded = lines('allowed');
    expect(recorded).toHaveLength(4);
    const ids = recorded.map((l) => Object.keys(l.serverIdentities ?? {}));
    expect(ids.every((k) => k.length === 1)).toBe(true);
    const [a, b] = [ids[0][0], ids[3][0]];
    expect(a).not.toBe(b);
    expect(ids.map(([k]) => k)).toEqual([a, a, b, b]);
    const spans = new RegExp(`${IDENTITY}: 2 items, 2 of 4 LLM calls; ${IDENTITY}: 2 items, 2 of 4 LLM calls`);
    expect(r.stderr).toMatch(new RegExp(`replies were answered under 2 GET /models identities: ${spans.source}`));
    const report = readFileSync(join(dir, 'allowed', 'report.md'), 'utf8');
    expect(report).toMatch(
      new RegExp(`\\*\\*replies answered under 2 server identities\\*\\*: ${spans.source} — the server described the model otherwise during the run`),
    );
    // compare says it of the run that spans two
    const c = await lexcase(['compare', 'allowed', 'stop'], { cwd: dir, env, timeoutMs: 120_000 });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toMatch(
      new RegExp(`A's replies span 2 server identities \\(the model behind its name changed during the run\\): ${spans.source}; its figures mix them`),
    );
    expect(c.stdout).not.toMatch(/B's replies span/);
  });

  // before: a resume of a run dir whose items record no identity (written before lexcase recorded it) took the
  // first identity it heard as the run's, and nothing said that the earlier items could not be checked
  it("a resume of items that record no identity says they cannot be checked against this attempt's: stderr and report.md", async () => {
    reset(Number.POSITIVE_INFINITY);
    const env = isolatedEnv({ LEXCASE_PROGRESS: 'off' });
    const first = await run(env, 'older', '--no-cache', '--limit', '2');
    expect(first.code, first.stderr).toBe(0);
    // what an older lexcase wrote: the same lines without serverIdentities
    const file = join(dir, 'older', 'results.jsonl');
    const recorded = lines('older');
    expect(recorded.every((l) => l.serverIdentities)).toBe(true);
    const older = recorded.map(({ serverIdentities: _, ...rest }) => rest);
    writeFileSync(file, older.map((l) => `${JSON.stringify(l)}\n`).join(''));
    const r = await run(env, 'older', '--no-cache');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(
        `the 2 earlier items that asked the LLM record no server identity \\(written by an older lexcase, or the server listed no model then\\): this attempt's replies, under ${IDENTITY}, cannot be checked against theirs`,
      ),
    );
    expect(readFileSync(join(dir, 'older', 'report.md'), 'utf8')).toMatch(
      /\*\*server identity not recorded\*\*: 2 items that asked the LLM record no server identity .* beside 2 that do: a model swapped behind the same name between them cannot be seen/,
    );
  });
});
