/**
 * `lexcase reproduce` of EVERY recipe in recipes/, at --limit 2, as a user runs it: the installed
 * package's binary (the packed tarball unpacked into an empty project: tests/support/installed-package.ts)
 * in a child process, the key in LEXCASE_LLM_API_KEY, the LLM recipes against the scripted
 * OpenAI-compatible server (one script answering every system: tests/support/scripted-all.ts) through
 * `--endpoint/--model`; then `--shard i/n` + `lexcase merge`. Each must exit 0 and write
 * table.md/table.json with the recipe's rows; an LLM recipe sends its requests with the key (before
 * the fix the process exited 13 with no message and no request: the in-process runner imported the
 * CLI entry while the entry was still in its top-level await); every run that can run here is done,
 * each item a result line with n = the items run in its cells, and the runs that cannot (no dense
 * index, data not bundled, not in lexcase) are named with their reason. This is where CI reproduces
 * every recipe from the installed package: the docs check's --recipes step (tests/docs/docs-check.ts),
 * which ran them all again with fewer checks, is no longer part of CI. (`--replay` of a recorded
 * reproduction: src/cli/commands/reproduce-llm.test.ts.)
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js'; // the system list, which recipes are checked against
import { loadRecipe } from '../../eval/reproduce/recipe.js';
import { scriptedAll } from '../support/scripted-all.js';
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server.js';
import { installPackedPackage } from '../support/installed-package.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { ensureBuilt, isolatedEnv, ROOT, STACK_TRACE } from '../support/spawn-cli.js';
import { sharedUserIndex } from './cli-fixtures.js';

let dir: string;
let idx: string;
let srv: ScriptedServer;
let env: Record<string, string | undefined>;
let installedCli: string;

/** The installed package's `lexcase <args>` in a child process. */
const lexcase = (args: string[], o: { cwd: string; env: Record<string, string | undefined>; timeoutMs?: number }) =>
  runBuiltCli(args, { cli: installedCli, cwd: o.cwd, env: o.env, timeoutMs: o.timeoutMs });

interface TableJson {
  runs: { id: string; status: string; error?: string }[];
  rows: { cells: { n: number; value: number | null; ci?: [number, number] | null }[] }[];
}

const RECIPES = readdirSync(join(ROOT, 'recipes'))
  .filter((f) => f.endsWith('.json'))
  .map(
    (f) =>
      JSON.parse(readFileSync(join(ROOT, 'recipes', f), 'utf8')) as {
        id: string;
        needs: { llm: boolean; data: string[]; ownDataOnly?: boolean };
        rows: { label: string }[];
      },
  )
  .sort((a, b) => a.id.localeCompare(b.id));

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-reproduce-'));
  installedCli = (await installPackedPackage(join(dir, 'pkg'))).cli;
  // the user index run, eval and paper-schemas read too (built once per slow-tier run): the recipes' runs read it only
  idx = (await sharedUserIndex(dir, { extra: 200 })).idx;
  srv = await startScriptedServer(scriptedAll());
  env = isolatedEnv({ LEXCASE_LLM_API_KEY: 'sk-test', LEXCASE_LLM_MAX_RETRIES: '0' });
}, 600_000);

afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs that cannot run on this test setup, and why. */
const CANNOT = [/^dense-rag-/, /^case-bm25-dense/, /-courts$/];

const noTrace = (r: { stdout: string; stderr: string }) => expect(STACK_TRACE.test(r.stdout + r.stderr), r.stderr).toBe(false);

describe('lexcase reproduce (the installed package)', () => {
  it("lists every recipe in recipes/, with whether it needs only the user's own data", async () => {
    const r = await lexcase(['--json', 'reproduce'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const listed = JSON.parse(r.stdout) as { id: string; ownDataOnly: boolean }[];
    expect(listed.map((x) => x.id)).toEqual(RECIPES.map((x) => x.id));
    for (const x of listed) expect(x.ownDataOnly, x.id).toBe(RECIPES.find((y) => y.id === x.id)!.needs.ownDataOnly === true);
    expect(listed.filter((x) => x.ownDataOnly).map((x) => x.id)).toContain('anserini-cacm');
    expect(RECIPES.length).toBeGreaterThanOrEqual(10);
  });

  for (const recipe of RECIPES) {
    it(`${recipe.id} --limit 2 runs end to end${recipe.needs.llm ? ' against the scripted server' : ' (offline)'} and writes its table`, async () => {
      const out = join(dir, recipe.id);
      const before = srv.requests.length;
      const r = await lexcase(
        ['reproduce', recipe.id, '--limit', '2', '--endpoint', srv.url, '--model', 'scripted', '--index', idx, '--no-cache', '--run-dir', out],
        { cwd: dir, env, timeoutMs: 300_000 },
      );
      const ownData = recipe.needs.ownDataOnly === true;
      expect(r.signal).toBeNull();
      expect(r.code, r.stderr).toBe(ownData ? 1 : 0); // nothing reproduced without the user's data: exit 1
      noTrace(r);
      if (ownData) {
        // every run needs the user's own copy (CACM: no licence to bundle it): without --data it stops
        // before writing anything, with one error naming --data (issue 37 item 17: before, it wrote a
        // run dir of failed runs and printed the hint 5 times); src/cli/commands/reproduce-anserini.test.ts
        // runs it end to end from a CACM-format folder made of bundled text
        expect(r.stderr).toMatch(/^\[error\] the CACM recipe needs your copy of CACM: pass --data FOLDER/m);
        expect(existsSync(out)).toBe(false);
        return;
      }
      const t = JSON.parse(readFileSync(join(out, 'table.json'), 'utf8'));
      expect(t.rows.map((x: { label: string }) => x.label)).toEqual(recipe.rows.map((x) => x.label));
      expect(readFileSync(join(out, 'table.md'), 'utf8')).toContain(recipe.rows[0].label);
      expect(r.stdout).toContain(`wrote ${join(out, 'table.md')}`);
      const done = t.runs.filter((s: { status: string }) => s.status === 'done');
      expect(done.length, JSON.stringify(t.runs)).toBeGreaterThan(0);
      if (recipe.needs.llm) {
        expect(srv.requests.length).toBeGreaterThan(before);
        expect(srv.requests.at(-1)!.headers.authorization).toBe('Bearer sk-test');
        expectEveryRunDone(recipe.id, out, t);
      }
      // 2 items say nothing about the paper's number: no "outside CI" flag below n = 10 (issue 36,
      // item 3 — threeply-table4 flagged 27 of its 32 cells on [100, 100] and [0, 0]), the reason given instead
      const cells = t.rows.flatMap(
        (row: {
          comparable: boolean;
          cells: { value: number | null; n: number; paper: number | null; outsideCi: boolean | null; flagNote?: string; method: string | null }[];
        }) => row.cells.map((c) => ({ ...c, comparable: row.comparable })),
      );
      for (const c of cells.filter((x: { value: number | null }) => x.value !== null)) {
        expect(c.n).toBeLessThanOrEqual(2);
        expect(c.outsideCi).toBeNull();
        if (c.comparable && c.paper !== null) expect(c.flagNote).toBe('n < 10');
        expect(c.method).toMatch(/^95% (Wilson|bootstrap)$/);
      }
      expect(readFileSync(join(out, 'table.md'), 'utf8')).not.toMatch(/n=\d+ ⚠/);
    }, 360_000);
  }

  /**
   * Every run of an LLM recipe that can run here is done, each item a result line and none failed (the
   * scripted endpoint answers every system well), its cells over the items run; the others name why.
   */
  function expectEveryRunDone(id: string, out: string, t: TableJson) {
    const { recipe } = loadRecipe(id);
    for (const run of recipe.runs) {
      const state = t.runs.find((s) => s.id === run.id)!;
      if (run.unavailable) expect(state).toMatchObject({ status: 'unavailable', error: run.unavailable });
      else if (CANNOT.some((re) => re.test(run.id))) {
        expect(state.status).toBe('failed');
        expect(state.error).toMatch(run.id.endsWith('-courts') ? /learned_hands_courts/ : /dense/);
      } else {
        expect(state, `${run.id}: ${state?.error}`).toMatchObject({ status: 'done' });
        const lines = readFileSync(join(out, 'runs', run.id, 'results.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean);
        expect(lines.length).toBe(run.system === 'threeply' ? 2 * (run.args.scenarios as string[]).length : 2);
        expect(lines.map((l) => JSON.parse(l).error).filter(Boolean), run.id).toEqual([]);
        // a cell over all of a run's items has n = the items run; an id-prefix cell (3-ply scenario) has the 2 of its scenario
        recipe.rows.forEach((row, i) =>
          row.cells.forEach((c, j) => {
            if (c.run !== run.id) return;
            const got = t.rows[i].cells[j];
            if (!c.metric.where && c.metric.stat !== 'mean') expect(got.n, `${row.label} / ${c.column}`).toBe(lines.length);
            if (c.metric.where?.idPrefix) expect(got.n, `${row.label} / ${c.column}`).toBe(2);
            // a 2-item cell: a Wilson interval for a proportion, none (said why) for a bootstrapped figure
            if (got.n > 0 && got.ci) expect(got.ci[0]).toBeLessThanOrEqual(got.value!);
            if (got.n > 0 && !got.ci) expect(got).toMatchObject({ method: '95% bootstrap', ciNote: 'n < 10' });
          }),
        );
      }
    }
    expect(t.rows.flatMap((x) => x.cells).filter((c) => c.n > 0).length).toBeGreaterThan(0);
  }

  it('--shard 1/2 and 2/2, then merge: one table over both shards', async () => {
    const s1 = join(dir, 'shard1');
    const s2 = join(dir, 'shard2');
    for (const [shard, out] of [
      ['1/2', s1],
      ['2/2', s2],
    ] as const) {
      const r = await lexcase(['reproduce', 'case-table3', '--limit', '4', '--shard', shard, '--index', idx, '--run-dir', out], { cwd: dir, env });
      expect(r.code, r.stderr).toBe(0);
    }
    const merged = join(dir, 'merged');
    const m = await lexcase(['merge', merged, s1, s2], { cwd: dir, env });
    expect(m.code, m.stderr).toBe(0);
    noTrace(m);
    const t = JSON.parse(readFileSync(join(merged, 'table.json'), 'utf8'));
    const ns = t.rows.flatMap((row: { cells: { n?: number; status?: string }[] }) => row.cells.filter((c) => c.status === 'done').map((c) => c.n));
    expect(ns.length).toBeGreaterThan(0);
    expect(new Set(ns)).toEqual(new Set([4]));
    expect(existsSync(join(merged, 'table.md'))).toBe(true);
  });

  it('merge with a shard missing names it, exit 1', async () => {
    const r = await lexcase(['merge', join(dir, 'merged-bad'), join(dir, 'shard1')], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/2\/2|shard/);
    noTrace(r);
  });
});
