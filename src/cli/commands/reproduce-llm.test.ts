/**
 * `lexcase reproduce --replay` (in this process): a reproduction recorded against the scripted
 * OpenAI-compatible server (one script answering every system: tests/support/scripted-all.ts) through
 * `--endpoint … --model …` re-runs with no endpoint, every LLM run's results.jsonl byte-identical;
 * --endpoint is scoped to the grid (the process environment is left as it was). Every LLM recipe end
 * to end at --limit 2, each run done with n > 0 in its cells, is tests/cli/reproduce.test.ts (the
 * built binary, as a user runs it; it ran here in-process too until issue 39 cut the duplicate).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadRecipe } from '../../../eval/reproduce/recipe.js';
import { scriptedAll } from '../../../tests/support/scripted-all.js';
import { buildSmallBarexamIndex } from '../../../tests/support/small-barexam-index.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../../tests/support/scripted-openai-server.js';

let dir: string;
let srv: ScriptedServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reproduce-llm-'));
  srv = await startScriptedServer(scriptedAll());
  for (const v of ['LEXCASE_LLM_BASE_URL', 'OPENAI_BASE_URL', 'LEXCASE_LLM_MODEL', 'LEXCASE_LLM_API_KEY', 'OPENAI_API_KEY', 'LEXCASE_LEGALBENCH_DIR'])
    vi.stubEnv(v, undefined as unknown as string);
  vi.stubEnv('LEXCASE_LLM_MAX_RETRIES', '0');
  vi.stubEnv('LEXCASE_LLM_RETRY_BASE_MS', '1');
}, 60_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await srv?.close();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

/** `lexcase [globalFlags] reproduce emar-table4 --limit N` against the scripted server, into `runDir` (in process). */
const reproduceEmar = (runDir: string, limit: number, globalFlags: string[] = []) =>
  runCli([
    ...globalFlags,
    'reproduce',
    'emar-table4',
    '--limit',
    String(limit),
    '--endpoint',
    srv.url,
    '--model',
    'scripted',
    '--no-cache',
    '--run-dir',
    runDir,
  ]);

describe('lexcase reproduce --replay', () => {
  it("re-runs a recorded reproduction with no endpoint: every LLM run's results.jsonl byte-identical", async () => {
    const out = join(dir, 'rec-emar-table4');
    const r = await reproduceEmar(out, 2, ['--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(process.env.LEXCASE_LLM_BASE_URL).toBeUndefined(); // --endpoint is scoped to the grid
    const again = join(dir, 'rep-emar-table4');
    const before = srv.requests.length;
    const r2 = await runCli(['--json', 'reproduce', 'emar-table4', '--limit', '2', '--replay', out, '--run-dir', again]);
    expect(r2.code, r2.stderr).toBe(0);
    expect(srv.requests.length).toBe(before); // no request reached the endpoint
    const { recipe } = loadRecipe('emar-table4');
    const llmRuns = recipe.runs.filter((x) => !x.unavailable && existsSync(join(out, 'runs', x.id, 'llm')));
    expect(llmRuns.length).toBeGreaterThan(0);
    for (const run of llmRuns)
      expect(readFileSync(join(again, 'runs', run.id, 'results.jsonl')).equals(readFileSync(join(out, 'runs', run.id, 'results.jsonl'))), run.id).toBe(true);
  }, 240_000);

  it('a grid answered from the response cache says so for each cell, on stderr and in table.md (before: only in logs/<run>.log)', async () => {
    const cacheDir = join(dir, 'llm-cache');
    vi.stubEnv('LEXCASE_CACHE_DIR', cacheDir);
    const grid = (runDir: string) => runCli(['reproduce', 'emar-table4', '--limit', '1', '--endpoint', srv.url, '--model', 'scripted', '--run-dir', runDir]);
    const first = await grid(join(dir, 'cached-1'));
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(join(dir, 'cached-1', 'table.md'), 'utf8')).not.toMatch(/answered from the response cache/);
    const before = srv.requests.length;
    const second = await grid(join(dir, 'cached-2'));
    expect(second.code, second.stderr).toBe(0);
    expect(srv.requests.length).toBe(before); // every reply from the cache
    const done = (JSON.parse(readFileSync(join(dir, 'cached-2', 'reproduction.json'), 'utf8')).runs as { id: string; status: string }[]).filter(
      (x) => x.status === 'done',
    );
    expect(done).toHaveLength(2);
    const table = readFileSync(join(dir, 'cached-2', 'table.md'), 'utf8');
    for (const { id } of done) {
      expect(second.stderr).toMatch(new RegExp(`\\[warn\\] run ${id}: (\\d+) of \\1 LLM calls were answered from the response cache`));
      expect(table).toMatch(new RegExp(`Run ${id}: (\\d+) of \\1 LLM calls were answered from the response cache, not by the server at the endpoint`));
    }
    vi.stubEnv('LEXCASE_CACHE_DIR', undefined as unknown as string);
  }, 240_000);

  it('an LLM grid preflights the endpoint once, not once more in each cell (emar-table4: 2 LLM cells, 1 GET /models + 1 per item)', async () => {
    const before = srv.modelListings;
    const r = await reproduceEmar(join(dir, 'pf'), 1);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'pf', 'reproduction.json'), 'utf8')).runs.filter((x: { status: string }) => x.status === 'done')).toHaveLength(2);
    // the preflight's one, and each cell's item hears the server's identity again (eval/server-identities.ts): 1 + 2
    expect(srv.modelListings - before).toBe(3);
    expect(process.env.LEXCASE_LLM_PREFLIGHT).toBeUndefined(); // the cells' skip is scoped to the grid
  }, 240_000);

  it('reproducing again says every resumed LLM cell\'s "resuming …: N of M items already done", as a retrieval cell says it', async () => {
    const out = join(dir, 'resumed');
    const grid = () => reproduceEmar(out, 1);
    const first = await grid(); // both emar cells done with their 1 item
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain('already done');
    const r = await grid();
    expect(r.code, r.stderr).toBe(0);
    for (const id of ['emar-hearsay', 'emar-barexam']) expect(r.stderr).toContain(`resuming ${join(out, 'runs', id)}: 1 of 1 items already done`);
  }, 240_000);

  it('continuing a reproduction with another model is refused before anything is written: reproduction.json keeps the model its cells were made with', async () => {
    const index = join(dir, 'idx-small');
    await buildSmallBarexamIndex(index, { items: 2 });
    const out = join(dir, 'rp-model');
    const args = (model: string) =>
      runCli([
        'reproduce',
        'mad-rounds',
        '--only',
        'single-rag',
        '--limit',
        '2',
        '--index',
        index,
        '--endpoint',
        srv.url,
        '--model',
        model,
        '--no-cache',
        '--run-dir',
        out,
      ]);
    const r = await args('scripted');
    expect(r.code, r.stderr).toBe(0);
    const files = ['reproduction.json', 'table.md', 'table.json'].map((f) => readFileSync(join(out, f), 'utf8'));
    expect(JSON.parse(files[0])).toMatchObject({ model: 'scripted', runs: [{ id: 'single-rag', status: 'done' }] });
    vi.stubEnv('LEXCASE_LLM_PREFLIGHT', '0'); // the scripted server lists only "scripted"
    const again = await args('m2');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/rp-model: holds a reproduction made with model scripted, not m2; use another --run-dir for m2/);
    expect(['reproduction.json', 'table.md', 'table.json'].map((f) => readFileSync(join(out, f), 'utf8'))).toEqual(files);
  }, 120_000);
});
