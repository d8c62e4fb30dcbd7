/**
 * The /v1 API's run figures (`lexcase serve --api --runs DIR`): every run under the runs root with
 * its headline figures — the same RunSummary the explorer's /api/runs/summary sends, computed by
 * the system list (eval/systems.ts) over the one statistics module (eval/stats/): each figure with
 * its 95% interval, the interval's method and the text every surface prints. Runs are found as the
 * explorer finds them (web/server/runs.ts: only inside the root, by their relative id).
 */
import { z } from 'zod';
import { errors } from '../../core/errors.js';
import { parseInput } from '../../core/parse-input.js';
import { runSummary } from '../../web/server/run-summary-api.js';
import { findRun, inRunsTable, listRunsWithin, notSearchedText, RUNS_LISTED } from '../../web/server/runs.js';

/** Strict: an unknown query parameter (`?run=ID&limt=5`) is a 400 naming it, never ignored. */
export const runInput = z
  .object({ run: z.string().min(1).max(500).describe('run id: its directory relative to the runs root, as GET /v1/runs lists it') })
  .strict();

const figure = z.object({
  id: z.string().describe('figure id: accuracy, recall@10, mrr, macro-f1, …'),
  label: z.string(),
  estimate: z.number().nullable().describe('null where the figure is over no item (every item failed): its text says "– (no items)"'),
  lo: z.number().nullable().describe('lower end of the 95% interval; null where none is given (a bootstrap figure below 10 items)'),
  hi: z.number().nullable(),
  n: z.number().int().describe('items the figure is computed over'),
  interval: z.enum(['wilson', 'bootstrap', 'none']).describe('the interval method (eval/stats): Wilson for proportions, percentile bootstrap otherwise'),
  kind: z.enum(['proportion', 'mean', 'statistic']).describe('the measure kind that chose the method'),
  unit: z.enum(['percent', 'decimal']).describe('how the figure is printed: proportions as %, retrieval measures (Recall@k, MRR) as decimals'),
  percent: z.boolean(),
  method: z.string().describe('the method as printed beside the figure: "95% Wilson", "95% bootstrap", "no interval: n < 10"'),
  text: z.string().describe('the figure as every lexcase surface prints it, e.g. "50.0% [15.0, 85.0]"'),
  smallN: z.boolean().describe('fewer than 30 items'),
  note: z.string().optional(),
  ceiling: z
    .string()
    .optional()
    .describe(
      'a short marker printed beside the figure in lists: macro-F1 capped below 100% by a label with no gold item ("at most 50.0% here: no gold Yes item"); `note` says why',
    ),
  failed: z.number().int().optional().describe('failed items left out of n (3-ply); absent where failures count in n as wrong'),
});

export const runFiguresOutput = z.object({
  id: z.string(),
  system: z.string().nullable().describe("config.json's system"),
  systemName: z.string(),
  n: z.number().int(),
  planned: z
    .number()
    .int()
    .nullable()
    .describe("items the run planned (config.json provenance.items: after --limit and a shard's share); null where not recorded"),
  partial: z.boolean().describe('true when the run holds fewer items than it planned (killed or interrupted): its figures are over the n items it finished'),
  inProgress: z.boolean().describe("true when the run is partial because a live lexcase process is still writing it (it holds the run dir's run.lock)"),
  resultsProblem: z
    .string()
    .nullable()
    .describe(
      'why results.jsonl cannot be read (a malformed line before the last: the error `lexcase report` stops with); its figures are then over no item. null when it was read',
    ),
  failures: z.number().int(),
  note: z
    .string()
    .nullable()
    .describe(
      'why n is 0 where it is (a run with no result line yet, a reproduction whose cells are runs of their own): its figures are then over no item; null otherwise',
    ),
  figures: z.array(figure),
});

export const listRunsOutput = z.object({
  runs: z.array(runFiguresOutput),
  truncated: z
    .object({ limit: z.number().int() })
    .optional()
    .describe('present when the runs directory holds more runs than are listed: only the first `limit` found are in `runs`'),
  notSearched: z
    .object({ depth: z.number().int(), dirs: z.number().int(), examples: z.array(z.string()), note: z.string() })
    .optional()
    .describe(
      'present when folders `depth` levels under the runs directory hold folders that were not searched: runs below them are not in `runs` (serve --runs on a folder nearer them lists them)',
    ),
});

type RunFigures = z.output<typeof runFiguresOutput>;

/** A reproduction's cells as a listing holds them: how many are listed beside it, and whether the listing was cut. */
type CellsListed = { listed: number; cut: boolean };

const pick = async (run: Parameters<typeof runSummary>[0], cells?: CellsListed): Promise<RunFigures> => {
  const s = await runSummary(run);
  return {
    id: s.id,
    system: s.system,
    systemName: s.systemName,
    n: s.n,
    planned: s.planned,
    partial: s.partial,
    inProgress: s.inProgress,
    // the runs root named as the explorer names it ("runs/…"): no absolute path in a reply
    resultsProblem: s.resultsProblem === null ? null : s.resultsProblem.split(run.root).join('runs'),
    failures: s.failures,
    note: noItemsNote(s, cells),
    figures: s.figures,
  };
};

/**
 * What a run listed with n 0 is (never dropped from the list: the explorer lists it too). A reproduction's note says
 * how many of its cells the listing holds: one cut at RUNS_LISTED may hold none of them (it said "listed beside it").
 */
function noItemsNote(s: Awaited<ReturnType<typeof runSummary>>, cells?: CellsListed): string | null {
  if (s.n > 0 || s.resultsProblem !== null) return null;
  if (s.system === 'reproduce') {
    const own = `a reproduction: its cells are runs of their own (${s.id}/runs/<cell>)`;
    if (!cells) return own;
    const listed = `${cells.listed} ${cells.listed === 1 ? 'is' : 'are'} listed beside it`;
    if (cells.cut) return `${own}; ${listed}, and this list stops at ${RUNS_LISTED} runs (truncated): a cell it left out is served by its id`;
    return cells.listed ? `${own}; ${listed}` : `${own}; none has a run folder yet`;
  }
  return s.inProgress
    ? 'no result line yet: a live lexcase process is still writing this run'
    : 'no result line yet: results.jsonl holds no item (the run stopped before its first one finished)';
}

function rootOf(root: string | undefined): string {
  if (!root) throw errors.notFound('run', 'this API server was started without --runs (lexcase serve --api --runs DIR)');
  return root;
}

export async function listRunFigures(root: string | undefined): Promise<z.output<typeof listRunsOutput>> {
  const listed = await listRunsWithin(rootOf(root));
  // every run the explorer's runs table lists (web/server/server.ts /api/runs/summary): one with no result
  // line yet is listed with n 0 and a note saying so, one whose results.jsonl cannot be read with the reason
  const runs = listed.runs.filter(inRunsTable);
  const cells = new Map<string, number>();
  for (const r of runs) if (r.parent) cells.set(r.parent, (cells.get(r.parent) ?? 0) + 1);
  return {
    runs: await Promise.all(runs.map((r) => pick(r, { listed: cells.get(r.id) ?? 0, cut: listed.truncated }))),
    ...(listed.truncated ? { truncated: { limit: RUNS_LISTED } } : {}),
    ...(listed.notSearched ? { notSearched: { ...listed.notSearched, note: notSearchedText(listed.notSearched) } } : {}),
  };
}

export async function runFigures(root: string | undefined, input: unknown): Promise<RunFigures> {
  const q = parseInput(runInput, input, 'run');
  const run = await findRun(rootOf(root), q.run).catch(() => undefined);
  if (!run) throw errors.notFound('run', `"${q.run}" under the runs directory`);
  return pick(run);
}
