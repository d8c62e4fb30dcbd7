/**
 * A reproduction recipe (recipes/<paper>-<table>.json): the grid of runs one paper table needs and
 * the numbers the paper printed, cell by cell. Validated with zod; errors name the file and the
 * field (e.g. `rows[2].cells[0].run`).
 *
 *   { id, paper, table, title, scale: 1 | 100, needs: { llm, data[], ownDataOnly?, index },
 *     runs: [{ id, system, args }],                       // one resumable run dir each
 *     columns: [...], rows: [{ label, comparable?, cells: [{ column, paper, run, metric }] }],
 *     differences: [...], notes: [...] }
 *
 * `system` is a `lexcase run <system>` command (any runnable entry of the system list),
 * `retrieval` (Recall@k of one retriever, offline) or `trec` (trec_eval measures of one retriever on
 * a TREC collection the user supplies with --data, offline: trec-run.ts); `args` are that command's
 * flags without the dashes (`{ "mode": "bm25-rag", "k": 3 }` → `--mode bm25-rag --k 3`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { errors } from '../../core/errors.js';
import { PACKAGE_ROOT } from '../../core/version.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { RETRIEVAL_METHODS } from '../../retrieval/open.js';
import { runSystemIds, SYSTEMS } from '../systems.js';

/** The systems a recipe run may name: every entry of the system list (eval/systems.ts, with the agent systems agents/systems.ts hands over) that runs. */
export const runSystems = (): readonly string[] => runSystemIds();
export type RunSystem = string;
/** Grid runs that need no LLM (they run in process: retrieval-run.ts, trec-run.ts). */
export const OFFLINE_SYSTEMS: readonly RunSystem[] = SYSTEMS.filter((s) => s.run?.via === 'in-process').map((s) => s.id);

const ArgValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

export const RecipeRun = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'lower-case letters, digits, . _ - (it names the run dir)'),
  system: z.string().refine((s) => runSystems().includes(s), {
    error: (i) =>
      `Invalid option: expected one of ${runSystems()
        .map((s) => JSON.stringify(s))
        .join('|')}${typeof i.input === 'string' ? `, got ${JSON.stringify(i.input)}` : ''}`,
  }),
  args: z.record(z.string().regex(/^[a-z][a-z0-9-]*$/, 'a flag name without dashes'), ArgValue).default({}),
  /** Why this run cannot be done here (e.g. "web search (Serper) is not in lexcase"): listed, never run. */
  unavailable: z.string().optional(),
});

export const Where = z.strictObject({
  idPrefix: z.string().optional(),
  gold: z.string().optional(),
  /** A confidence label ("high"), or `{ "not": label }`: every item without it (failed items and items with no label included). */
  confidence: z.union([z.string(), z.strictObject({ not: z.string() })]).optional(),
});

/**
 * How a cell's value comes from its run's results.jsonl:
 *  accuracy            share of items with correct = true (failed items count as wrong)
 *  mean                mean of a per-item metric `key` (booleans as 0/1; null/missing skipped, but 0 for a metric
 *                      the run's system declares an outcome of every item: eval/stats metricValueOf)
 *  ratio               Σ num / Σ den over items (per-item metrics), one-minus-ratio = 1 − that
 *  macro-precision | macro-recall | macro-f1 | micro-f1   over the task's labels (eval/metrics/macro.ts)
 * `where` keeps only some items (id prefix, gold label, confidence label — or `{ not: label }`, every
 * other item: CASE Table 4's low confidence is `{ not: "high" }`, so its two columns split Acc.).
 */
export const Metric = z.strictObject({
  stat: z.enum(['accuracy', 'mean', 'ratio', 'one-minus-ratio', 'macro-precision', 'macro-recall', 'macro-f1', 'micro-f1']),
  key: z.string().optional(),
  num: z.string().optional(),
  den: z.string().optional(),
  where: Where.optional(),
});
export type Metric = z.infer<typeof Metric>;

export const RecipeCell = z.strictObject({
  column: z.string(),
  /** The paper's printed number (in the recipe's scale), or null where the paper prints none. */
  paper: z.number().nullable(),
  run: z.string(),
  metric: Metric,
});

export const RecipeRow = z.strictObject({
  label: z.string(),
  /** false when the paper's setting differs so much (dataset, corpus) that no CI flag is raised. */
  comparable: z.boolean().default(true),
  note: z.string().optional(),
  cells: z.array(RecipeCell).min(1),
});

export const Recipe = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9-]+$/),
    paper: z.string(),
    table: z.string(),
    title: z.string(),
    /** 100: the paper prints percentages; 1: fractions. lexcase values are shown in the same scale. */
    scale: z.union([z.literal(1), z.literal(100)]),
    needs: z.strictObject({
      llm: z.boolean(),
      data: z.array(z.string()).default([]),
      /**
       * true when every data need is the user's own copy (nothing bundled can stand in, e.g. CACM):
       * without --data no run can succeed, so `lexcase reproduce` exits 1 with a table of errors.
       */
      ownDataOnly: z.boolean().default(false),
      index: z.string().optional(),
    }),
    /** The paper's model settings, for the record (lexcase uses the endpoint you give it). */
    paperSettings: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
    runs: z.array(RecipeRun).min(1),
    columns: z.array(z.string()).min(1),
    rows: z.array(RecipeRow).min(1),
    differences: z.array(z.string()).default([]),
    notes: z.array(z.string()).default([]),
  })
  .superRefine((r, ctx) => {
    if (r.needs.ownDataOnly && r.needs.data.length === 0)
      ctx.addIssue({
        code: 'custom',
        path: ['needs', 'ownDataOnly'],
        message: 'true, but needs.data names no data (say which copy the user must pass with --data)',
      });
    const runIds = new Set<string>();
    r.runs.forEach((run, i) => {
      if (runIds.has(run.id)) ctx.addIssue({ code: 'custom', path: ['runs', i, 'id'], message: `duplicate run id "${run.id}"` });
      runIds.add(run.id);
      // the args a retrieval or trec cell reads (run-grid.ts): another key, or a seed that is no number, was left
      // out without a word (a qld cell given "mu": 50 or "split-seed": "7" ran μ 2000 and split seed 13)
      const takes = OFFLINE_ARGS[run.system];
      if (takes)
        for (const [k, v] of Object.entries(run.args)) {
          if (!takes.includes(k))
            ctx.addIssue({
              code: 'custom',
              path: ['runs', i, 'args', k],
              message: `a ${run.system} run does not take "${k}"; ${didYouMean(k, takes)}it takes ${takes.join(', ')}`,
            });
          else if ((k === 'seed' || k === 'split-seed') && !(typeof v === 'number' && Number.isInteger(v)))
            ctx.addIssue({ code: 'custom', path: ['runs', i, 'args', k], message: `a whole number (e.g. 13), got ${JSON.stringify(v)}` });
        }
      // A retrieval run's method must be a retrieval method (`__proto__` used to fail every item with "retriever.search is not a function").
      const method = run.args.method;
      if (run.system === 'retrieval' && method !== undefined && !(typeof method === 'string' && RETRIEVAL_METHODS.includes(method)))
        ctx.addIssue({
          code: 'custom',
          path: ['runs', i, 'args', 'method'],
          message: `"${String(method)}" is not a retrieval method; ${didYouMean(String(method), RETRIEVAL_METHODS)}known: ${RETRIEVAL_METHODS.join(', ')}`,
        });
    });
    r.rows.forEach((row, i) =>
      row.cells.forEach((c, j) => {
        if (!runIds.has(c.run)) ctx.addIssue({ code: 'custom', path: ['rows', i, 'cells', j, 'run'], message: `no run with id "${c.run}"` });
        if (!r.columns.includes(c.column))
          ctx.addIssue({ code: 'custom', path: ['rows', i, 'cells', j, 'column'], message: `"${c.column}" is not one of the columns` });
        const m = c.metric;
        if (m.stat === 'mean' && !m.key) ctx.addIssue({ code: 'custom', path: ['rows', i, 'cells', j, 'metric', 'key'], message: 'stat "mean" needs a key' });
        if ((m.stat === 'ratio' || m.stat === 'one-minus-ratio') && (!m.num || !m.den))
          ctx.addIssue({ code: 'custom', path: ['rows', i, 'cells', j, 'metric'], message: `stat "${m.stat}" needs num and den` });
      }),
    );
  });
/** The args each offline cell reads (eval/reproduce/run-grid.ts runOne, trecRunOptions); an LLM run's go to its command, whose flags refuse another. */
const OFFLINE_ARGS: Record<string, readonly string[]> = {
  retrieval: ['method', 'index', 'dataset', 'split', 'split-seed', 'ks', 'seed'],
  trec: [
    'collection',
    'method',
    'analyzer',
    'k1',
    'b',
    'mu',
    'variant',
    'scorer',
    'rm3',
    'fb-docs',
    'fb-terms',
    'original-query-weight',
    'hits',
    'ties',
    'metrics',
    'seed',
  ],
};

export type Recipe = z.infer<typeof Recipe>;
export type RecipeRun = z.infer<typeof RecipeRun>;

/** recipes/ at the package root (shipped in the package; from src, from dist, and installed — never the cwd). */
export function recipesDir(): string {
  return join(PACKAGE_ROOT, 'recipes');
}

/** Validate a parsed recipe; the error names the file and the first bad field. */
export function parseRecipe(value: unknown, file: string): Recipe {
  const r = Recipe.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  throw errors.fileParse(file, undefined, `recipe field ${field || '(root)'}: ${issue.message}`, 'see docs/reproductions.md for the recipe format');
}

/** The names of the bundled recipes (recipes/*.json). */
export function recipeNames(): string[] {
  return readdirSync(recipesDir())
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** The recipe file for a name (`case-table3`) or a path (`./my-recipe.json`). */
export function recipeFile(nameOrPath: string): string {
  if (existsSync(nameOrPath) && nameOrPath.endsWith('.json')) return nameOrPath;
  const file = join(recipesDir(), `${nameOrPath.replace(/\.json$/, '')}.json`);
  if (!existsSync(file)) throw errors.recipeNotFound(nameOrPath, file, recipeNames());
  return file;
}

export function loadRecipe(nameOrPath: string): { recipe: Recipe; file: string; text: string } {
  const file = recipeFile(nameOrPath);
  const text = readFileSync(file, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw errors.fileParse(file, undefined, `not valid JSON: ${(e as Error).message}`);
  }
  return { recipe: parseRecipe(value, file), file, text };
}
