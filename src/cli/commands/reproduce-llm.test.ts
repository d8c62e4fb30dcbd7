/**
 * Every LLM recipe, `--limit 2`, end to end against the scripted OpenAI-compatible server (one
 * script answering every system: tests/support/scripted-all.ts) through
 * `lexcase reproduce --endpoint … --model …`: each writes table.md/table.json, every run that can
 * run here is done with n > 0 in its cells, and the runs that cannot (no dense index, data not
 * bundled, not in lexcase) are named with their reason.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadRecipe } from '../../../eval/reproduce/recipe.js';
import { scriptedAll } from '../../../tests/support/scripted-all.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../../tests/support/scripted-openai-server.js';
import { buildMixedIndex } from '../../../tests/support/five-systems.js';

let dir: string;
let index: string;
let srv: ScriptedServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reproduce-llm-'));
  index = (await buildMixedIndex(dir, 2, 300, { hearsay: false })).dir;
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

/** Runs that cannot run on this test setup, and why. */
const CANNOT = [/^dense-rag-/, /^case-bm25-dense/, /-courts$/];

describe('lexcase reproduce <LLM recipe> --limit 2 against the scripted server', () => {
  it.each(['case-table2', 'case-table4', 'acal-table3', 'acal-table4', 'mad-rounds', 'threeply-table2', 'threeply-table3', 'threeply-table4', 'emar-table4'])(
    '%s runs end to end and writes its table',
    async (id) => {
      const out = join(dir, id);
      const r = await runCli([
        '--json',
        'reproduce',
        id,
        '--limit',
        '2',
        '--endpoint',
        srv.url,
        '--model',
        'scripted',
        '--index',
        index,
        '--no-cache',
        '--run-dir',
        out,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(existsSync(join(out, 'table.md'))).toBe(true);
      const t = JSON.parse(readFileSync(join(out, 'table.json'), 'utf8'));
      const { recipe } = loadRecipe(id);
      expect(t.rows.map((x: { label: string }) => x.label)).toEqual(recipe.rows.map((x) => x.label));
      expect(process.env.LEXCASE_LLM_BASE_URL).toBeUndefined(); // --endpoint is scoped to the grid
      for (const run of recipe.runs) {
        const state = t.runs.find((s: { id: string }) => s.id === run.id);
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
          // the scripted endpoint answers every system well: no item failed
          expect(lines.map((l) => JSON.parse(l).error).filter(Boolean), run.id).toEqual([]);
          // a cell over all of a run's items has n = the items run; an id-prefix cell (3-ply scenario) has the 2 of its scenario
          recipe.rows.forEach((row, i) =>
            row.cells.forEach((c, j) => {
              if (c.run !== run.id) return;
              const got = t.rows[i].cells[j];
              if (!c.metric.where && c.metric.stat !== 'mean') expect(got.n, `${row.label} / ${c.column}`).toBe(lines.length);
              if (c.metric.where?.idPrefix) expect(got.n, `${row.label} / ${c.column}`).toBe(2);
              // a 2-item cell: a Wilson interval for a proportion, none (said why) for a bootstrapped figure; never a flag
              if (got.n > 0 && got.ci) expect(got.ci[0]).toBeLessThanOrEqual(got.value);
              if (got.n > 0 && !got.ci) expect(got).toMatchObject({ method: '95% bootstrap', ciNote: 'n < 10' });
              if (got.n > 0) expect(got.outsideCi).toBeNull();
            }),
          );
        }
      }
      const filled = t.rows.flatMap((x: { cells: { n: number }[] }) => x.cells).filter((c: { n: number }) => c.n > 0);
      expect(filled.length).toBeGreaterThan(0);
    },
    120_000,
  );
});

describe('lexcase reproduce --replay', () => {
  it("re-runs a recorded reproduction with no endpoint: every LLM run's results.jsonl byte-identical", async () => {
    const out = join(dir, 'rec-emar-table4');
    const r = await runCli([
      '--json',
      'reproduce',
      'emar-table4',
      '--limit',
      '2',
      '--endpoint',
      srv.url,
      '--model',
      'scripted',
      '--no-cache',
      '--run-dir',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
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
});
