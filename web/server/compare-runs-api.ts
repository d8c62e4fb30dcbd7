/**
 * Compare N runs (GET /api/compare/runs?runs=a,b,c): each run's summary (the system registry's
 * figures), a key-by-key config diff (every key whose value differs between any two runs, with
 * every run's value), overlaid curves — Recall@k of retrieval runs, MAD's accuracy per round —
 * and the runs' headline figures side by side, plus the paired difference (this run − the first,
 * B − A) of the primary measure — accuracy, or a retrieval run's first Recall@k — of every run
 * against the first on their shared items, with how many of them each of the two failed, what the measure is
 * over where its note does not say (macro-F1's ceiling) and the headline figures it has no row for (3-ply's
 * pooled ratios: `notComparedLine`) (eval/report/compare.ts over eval/stats, with the text the page prints).
 */
import { z } from 'zod';
import { commitsOf, compareRunData, comparisonNote, itemJudge } from '../../eval/report/compare.js';
import type { ResultRecord } from '../../eval/types.js';
import {
  figuresSpec,
  recallCurveSpec,
  roundAccuracySpec,
  runColours,
  runLabels,
  type CurvePoint,
  type FigurePoint,
  type PlotSpec,
} from '../../eval/plots/specs.js';
import { badRequest } from '../../serve/http/http-util.js';
import { publicRunConfig } from '../../serve/http/public-json.js';
import { compareRunInput } from './compare-api.js';
import { madRounds, runSummary } from './run-summary-api.js';
import type { RunEntry } from './runs.js';

export const MAX_COMPARED = 8;
export const compareRunsQuerySchema = z.object({ runs: z.string().min(1).max(4000) }).strict();

/** Run ids from the `runs` field: comma-separated, 2 to MAX_COMPARED distinct ids. */
export function comparedIds(field: string): string[] {
  const ids = [
    ...new Set(
      field
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length < 2) throw badRequest('compare: field "runs": give at least two run ids, comma-separated');
  if (ids.length > MAX_COMPARED) throw badRequest(`compare: field "runs": at most ${MAX_COMPARED} runs at once, got ${ids.length}`);
  return ids;
}

/** Flatten a config to dotted keys ("model.temperature"); arrays stay values. */
export function flatConfig(o: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (o && typeof o === 'object' && !Array.isArray(o)) {
    for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
      if (v && typeof v === 'object' && !Array.isArray(v)) flatConfig(v, `${prefix}${k}.`, out);
      else out[`${prefix}${k}`] = v;
    }
  }
  return out;
}

/** Marks a key a config does not have (JSON has no undefined). */
export const ABSENT = { absent: true } as const;

/** Keys whose values differ between any two of the configs, with every config's value (ABSENT where it has none). */
export function configDiff(configs: unknown[]): { key: string; values: unknown[] }[] {
  const flat = configs.map((c) => flatConfig(c));
  const keys = [...new Set(flat.flatMap((f) => Object.keys(f)))].sort();
  return keys
    .filter((k) => new Set(flat.map((f) => (k in f ? JSON.stringify(f[k]) : '\u0000absent'))).size > 1)
    .map((key) => ({ key, values: flat.map((f) => (key in f ? f[key] : ABSENT)) }));
}

/** At most this many items in the item × run matrix (the first, in the first run's order). */
export const MATRIX_ITEMS = 500;

/**
 * Which items each run got right: one row per item (the union of the runs' items, in the order the
 * runs list them), one cell per run — the run's prediction and whether it was right, or null where
 * the run has no such item — from each run's results.jsonl (its last record per item).
 */
export function itemMatrix(
  results: { id: string; prediction: string | null; gold: string; correct: boolean; error?: string }[][],
  labels: string[],
  judges: { label: string; right: (r: ResultRecord) => boolean }[] = results.map(() => ({ label: 'right', right: (r) => r.correct })),
) {
  const byRun = results.map((rs) => new Map(rs.map((r) => [r.id, r])));
  const ids = [...new Set(results.flatMap((rs) => rs.map((r) => r.id)))];
  return {
    runs: labels,
    /** What ✓ means: "right" (accuracy), or "hit (Recall@k > 0)" for retrieval runs (eval/report/compare.ts itemJudge). */
    rightMeans: [...new Set(judges.map((j) => j.label))].join(' / '),
    total: ids.length,
    rows: ids.slice(0, MATRIX_ITEMS).map((id) => {
      const cells = byRun.map((m, i) => {
        const r = m.get(id);
        return r ? { prediction: r.prediction, correct: judges[i].right(r as ResultRecord), error: r.error ?? null } : null;
      });
      return { id, gold: byRun.map((m) => m.get(id)?.gold).find((g) => g !== undefined) ?? null, right: cells.filter((c) => c?.correct).length, cells };
    }),
  };
}

/** A figure's reason for no interval ("no interval: n < 10" → "n < 10"), for a plot's tooltip. */
const noInterval = (method: string) => method.replace(/^no interval: /, '');

export async function compareManyRuns(runs: RunEntry[]) {
  const data = await Promise.all(runs.map(compareRunInput));
  const summaries = await Promise.all(runs.map(runSummary));
  const plots: { id: string; title: string; spec: PlotSpec }[] = [];
  // every plot names a run by one short, distinct label and draws it in one colour (the runs' order)
  const labels = runLabels(runs.map((r) => r.id));
  const label = (id: string) => labels.get(id) ?? id;
  const colours = runColours(runs.map((r) => label(r.id)));
  // Recall@k curves of retrieval runs (their per-k figures), one line per run
  const curve: CurvePoint[] = summaries.flatMap((s) =>
    s.figures
      .filter((f): f is typeof f & { estimate: number } => /^recall@\d+$/.test(f.id) && f.estimate !== null)
      .map((f) => ({ method: label(s.id), k: Number(f.id.slice(7)), recall: f.estimate, lo: f.lo, hi: f.hi, missing: noInterval(f.method) })),
  );
  if (new Set(curve.map((p) => p.method)).size >= 1 && new Set(curve.map((p) => p.k)).size >= 2)
    plots.push({ id: 'recall-curves', title: 'Recall@k per run (95% CI bands)', spec: recallCurveSpec(curve, 'Recall@k per run (95% CI bands)', colours) });
  const rounds = (
    await Promise.all(runs.map(async (r, i) => (await madRounds(r, summaries[i], data[i].results)).map((x) => ({ ...x, series: label(r.id) }))))
  ).flat();
  if (rounds.length)
    plots.push({
      id: 'round-curves',
      title: 'Accuracy of the verdict after each round, per run',
      spec: roundAccuracySpec(rounds, 'Accuracy after each round, per run', colours),
    });
  const points: FigurePoint[] = summaries.flatMap((s) =>
    s.figures
      // a figure over no item (every item failed) has no point to plot
      .filter((f): f is typeof f & { estimate: number } => f.unit === 'percent' && f.estimate !== null)
      .map((f) => ({ run: label(s.id), figure: f.label, estimate: f.estimate, lo: f.lo, hi: f.hi, n: f.n, missing: noInterval(f.method) })),
  );
  if (points.length)
    plots.push({ id: 'figures', title: 'Headline figures per run (95% CI)', spec: figuresSpec(points, 'Headline figures per run (95% CI)', colours) });
  const pairs = data.slice(1).map((d, i) => {
    try {
      // a pair `lexcase compare` refuses (a config.json without seed/config/provenance) has no Δ here either
      const refused = data[0].problem ? `run A (${data[0].dir}): ${data[0].problem}` : d.problem ? `run B (${d.dir}): ${d.problem}` : null;
      if (refused) throw new Error(refused);
      const c = compareRunData(data[0], d, { runDirs: [runs[0].dir, runs[i + 1].dir] });
      const m = c.primary;
      return {
        a: runs[0].id,
        b: runs[i + 1].id,
        shared: c.shared,
        // the ids in one run and not the other (left out of the pair), as the two-run view shows them
        onlyA: c.onlyA,
        onlyB: c.onlyB,
        onlyLine: c.onlyLine,
        measure: m.label,
        estimate: m.estimate,
        lo: m.lo,
        hi: m.hi,
        p: m.p,
        test: m.test,
        text: m.text,
        agreement: c.agreement,
        judgedBy: c.judgedBy,
        failed: { a: c.a.failed, b: c.b.failed },
        failedLine: c.failedLine,
        pairingLines: c.pairingLines,
        // what the primary row is over where its note does not say (macro-F1's ceiling), as `lexcase compare` prints it under its table
        ...(m.over ? { over: m.over } : {}),
        // the headline figures both systems give that have no row (3-ply's pooled ratios), as `lexcase compare` says
        notComparedLine: c.notComparedLine,
      };
    } catch (e) {
      return { a: runs[0].id, b: runs[i + 1].id, shared: 0, error: (e as Error).message };
    }
  });
  return {
    matrix: itemMatrix(
      data.map((d) => d.results),
      runs.map((r) => label(r.id)),
      data.map(itemJudge),
    ),
    sign: 'B − A' as const,
    note: comparisonNote(pairs.find((p) => 'judgedBy' in p)?.judgedBy ?? 'accuracy'),
    runs: summaries,
    // with the lexcase version and commits each run's items ran under (a resume's too), as `lexcase compare` names them
    configDiff: configDiff(
      data.map((d) => ({
        // the seed config.json records; none recorded is absent (before: 13 assumed)
        ...(publicRunConfig({ ...(d.config.seed !== undefined ? { seed: d.config.seed } : {}), ...d.config.config }) as Record<string, unknown>),
        'lexcase version': d.config.provenance?.lexcaseVersion,
        'lexcase commit': commitsOf(d.config),
      })),
    ),
    plots,
    pairs,
  };
}
