/**
 * The system list: one entry per kind of run lexcase writes (config.json's `system`), and every
 * per-system fact any layer reads — display name, run command and its run-dir flag, whether it
 * takes an index (or a --data dir), the explorer's trace view, the report section, how to read its
 * method / k from the config, and its headline metrics. Readers: the reproduce runner
 * (eval/reproduce/recipe.ts `RUN_SYSTEMS`, run-argv.ts), the report (eval/report/registry.ts picks
 * a system's section by `reportSection`), the explorer (its server sends the list in /api/info and
 * headline figures in /api/runs/summary; web/app/run-view.ts keys its trace views by `TraceKind`),
 * the CLI (`lexcase run --help` lists the systems from here) and the library (`systemSpec`,
 * `headlineFigures`). It lives in eval/ because the reproduce runner and the report, below
 * agents/, read it; it names systems, it imports none of them. A new system is one entry here
 * (docs/architecture.md, "How to add an agent system").
 *
 * Intervals come from the one statistics module (eval/stats/): a proportion (accuracy, Recall@k
 * with one gold passage per query, a convergence or abstention rate) gets a Wilson score interval,
 * honest at any n; any other figure (MRR, macro-F1, pooled factor ratios) a seeded percentile
 * bootstrap (seed 13, 2,000 resamples), left out below MIN_N = 10 items. Each figure carries the
 * name of its method and its printed text, so report.md, the explorer and the /v1 API print the
 * same thing. Retrieval measures (Recall@k, MRR) are decimals, never percentages. Every figure
 * below SMALL_N items carries a small-n warning.
 */
import { figureText, methodLabel, MIN_N, perItemInterval, proportionInterval, statisticInterval, type Interval, type MeasureKind, type Unit } from './stats/index.js';
import { classificationReport } from './metrics/classification.js';
import { correctFlags, isFailed, scoredPrediction } from './metrics/failures.js';
import type { ResultRecord } from './types.js';

/** ACAL's answer labels (agents/acal/metrics.ts reads them from here: one definition). */
export const ACAL_LABELS = ['Yes', 'No'] as const;

/** Below this n every figure is flagged "small n". */
export const SMALL_N = 30;
/** Below this n no bootstrap interval is given (eval/stats/settings.ts MIN_N). */
export const MIN_BOOTSTRAP_N = MIN_N;

export type IntervalKind = 'wilson' | 'bootstrap' | 'none';

/** One headline figure of a run: a proportion shown as % (`unit: 'percent'`), or a decimal (retrieval measures, `unit: 'decimal'`). */
export interface HeadlineFigure {
  id: string;
  label: string;
  estimate: number;
  /** null when no interval is given (n below MIN_N for a bootstrap figure). */
  lo: number | null;
  hi: number | null;
  /** Items the figure is computed over. */
  n: number;
  /** The interval's method ('none' where no interval is given). */
  interval: IntervalKind;
  /** The measure kind that chose the method (eval/stats/methods.ts). */
  kind: MeasureKind;
  unit: Unit;
  /** unit === 'percent'. */
  percent: boolean;
  /** The method's printed name: "95% Wilson", "95% bootstrap", or "no interval: n < 10". */
  method: string;
  /** The figure as every surface prints it: "50.0% [15.0, 85.0]", "0.032 [0.021, 0.045]". */
  text: string;
  /** Set below SMALL_N items. */
  smallN: boolean;
  /** e.g. "over the 1 triple designed for abstention". */
  note?: string;
}

export interface FigureContext {
  config: Record<string, unknown>;
  /** Bootstrap seed and resamples; default the statistics module's (13, 2,000) — the same on every surface. */
  seed?: number;
  iterations?: number;
}

export interface HeadlineMetric {
  id: string;
  label: string;
  /** The figures this metric gives for a run: none when its records cannot give it (no item carries the metric), several for one per k. */
  compute(records: readonly ResultRecord[], ctx: FigureContext): HeadlineFigure[];
}

/** The explorer's trace views (web/app/run-view.ts has one renderer per kind). */
export const TRACE_KINDS = ['case', 'acal', 'mad', 'emar', 'threeply', 'retrieval', 'baseline', 'other'] as const;
export type TraceKind = (typeof TRACE_KINDS)[number];

/** How a system runs: `lexcase run <id>` (a child process of `reproduce`), or in process. */
export interface RunSpec {
  /** `cli`: `lexcase run <id> …`; `in-process`: the reproduce runner runs it itself, no LLM (retrieval-run.ts, trec-run.ts). */
  via: 'cli' | 'in-process';
  /** The flag that names the run directory (`lexcase run <id> --run-dir DIR`). */
  runDirFlag: '--run-dir';
  /** It searches an index: `reproduce --index DIR` is passed on as `--index DIR`. */
  takesIndex: boolean;
  /** It reads a user-supplied dataset dir: `reproduce --data DIR` is passed on as `--data DIR`. */
  takesData: boolean;
  /** `--limit N` caps its items (3-ply caps its `--n` instead). */
  limit: 'limit' | 'n';
}

export interface SystemSpec {
  /** Registry key (and `lexcase run <id>` / a recipe run's `system` when `run` is set). */
  id: string;
  /** Display name. */
  name: string;
  /** config.json `system` values this entry covers. */
  matches(configSystem: string): boolean;
  /** How it runs; absent for runs no recipe can ask for (a reproduction's own record). */
  run?: RunSpec;
  /** Which trace view the explorer gives its items (a baseline's trace is recognised by shape). */
  traceKind: TraceKind;
  /** The id of the report section registered for its runs (`registerReportSection`), if any. */
  reportSection: string | null;
  /** The retrieval method, mode or variant a run used, for the runs list. */
  method(config: Record<string, unknown>): string | null;
  /** The k (passages per search) a run used, for the runs list (a list of ks for retrieval runs). */
  k(config: Record<string, unknown>): string | null;
  headline: readonly HeadlineMetric[];
  /** A retrieval run: judged by retrieval measures (Recall@k, MRR, MAP…), never by "accuracy" (gold at rank 1); report and compare follow `headline`. */
  retrieval?: boolean;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The model a run used: config.model as a string, or the `model` field of a recorded LLM config object. */
export function modelOf(config: Record<string, unknown>): string | null {
  const m = config.model;
  if (typeof m === 'string') return m || null;
  if (m && typeof m === 'object') return str((m as Record<string, unknown>).model) ?? str((m as Record<string, unknown>).name);
  return null;
}

/** A figure from its interval (eval/stats): the numbers, the method's name and the printed text. */
export function figureOf(id: string, label: string, iv: Interval, o: { unit?: Unit; note?: string } = {}): HeadlineFigure {
  const unit = o.unit ?? 'percent';
  return {
    id,
    label,
    estimate: iv.estimate,
    lo: iv.lo,
    hi: iv.hi,
    n: iv.n,
    interval: iv.lo === null ? 'none' : iv.method,
    kind: iv.kind,
    unit,
    percent: unit === 'percent',
    method: methodLabel(iv),
    text: figureText(iv, unit),
    smallN: iv.n < SMALL_N,
    ...(o.note ? { note: o.note } : {}),
  };
}

/** A 0/1 figure: Wilson interval. */
export function proportion(id: string, label: string, successes: number, n: number, note?: string): HeadlineFigure {
  return figureOf(id, label, proportionInterval(successes, n), { note });
}

/** Any other figure: seeded percentile bootstrap of `stat` over resampled items (none below MIN_N). */
export function bootstrapped(id: string, label: string, n: number, stat: (idx: Int32Array) => number, ctx: Pick<FigureContext, 'seed' | 'iterations'>, opts: { unit?: Unit; note?: string; kind?: 'mean' | 'statistic' } = {}): HeadlineFigure {
  return figureOf(id, label, statisticInterval(n, stat, { seed: ctx.seed, iterations: ctx.iterations, kind: opts.kind }), opts);
}

const accuracy: HeadlineMetric = {
  id: 'accuracy',
  label: 'accuracy',
  compute: (records) => (records.length ? [proportion('accuracy', 'accuracy', correctFlags(records).reduce((a, b) => a + b, 0), records.length)] : []),
};

/** Share of scored items whose boolean metric `key` is true (items without it are left out). */
function rate(id: string, label: string, key: string, filter: (r: ResultRecord) => boolean = () => true): HeadlineMetric {
  return {
    id,
    label,
    compute: (records) => {
      const xs = records.filter((r) => filter(r) && typeof r.metrics?.[key] === 'boolean');
      return xs.length ? [proportion(id, label, xs.filter((r) => r.metrics![key] === true).length, xs.length)] : [];
    },
  };
}

const macroF1 = (labels?: readonly string[]): HeadlineMetric => ({
  id: 'macro-f1',
  label: 'macro-F1',
  compute: (records, ctx) => {
    if (!records.length) return [];
    const preds = records.map(scoredPrediction);
    const golds = records.map((r) => r.gold);
    return [bootstrapped('macro-f1', 'macro-F1', records.length, (idx) => classificationReport([...idx].map((i) => preds[i]), [...idx].map((i) => golds[i]), labels).macroF1, ctx)];
  },
});

/** The ks a retrieval run recorded (config.ks, else every recall@k key of its records). */
function recallKs(records: readonly ResultRecord[], config: Record<string, unknown>): number[] {
  const fromConfig = Array.isArray(config.ks) ? config.ks.filter((k): k is number => typeof k === 'number') : [];
  if (fromConfig.length) return [...fromConfig].sort((a, b) => a - b);
  const ks = new Set<number>();
  for (const r of records) for (const key of Object.keys(r.metrics ?? {})) if (/^recall@\d+$/.test(key)) ks.add(Number(key.slice(7)));
  return [...ks].sort((a, b) => a - b);
}

/** Recall@k for every k the run recorded (a decimal, as every retrieval measure). */
const recall: HeadlineMetric = {
  id: 'recall',
  label: 'Recall@k',
  compute: (records, ctx) => recallKs(records, ctx.config).flatMap((k) => recallAt(records, k, ctx) ?? []),
};

function recallAt(records: readonly ResultRecord[], k: number, ctx: FigureContext): HeadlineFigure | null {
  const xs = records.map((r) => num(r.metrics?.[`recall@${k}`])).filter((x): x is number => x !== null);
  if (!xs.length) return null;
  // one gold passage per query: a 0/1 hit (a proportion, Wilson); graded recall: a mean (bootstrap)
  return figureOf(`recall@${k}`, `Recall@${k}`, perItemInterval(xs, ctx), { unit: 'decimal' });
}

/** Reciprocal rank of the first gold passage per item (0 when none was found), for MRR. */
export function reciprocalRanks(records: readonly ResultRecord[]): number[] {
  return records.filter((r) => r.metrics && 'firstRank' in r.metrics).map((r) => (num(r.metrics!.firstRank) ? 1 / num(r.metrics!.firstRank)! : 0));
}

/** MRR: a mean of graded values (bootstrap), printed as a decimal. */
const mrr: HeadlineMetric = {
  id: 'mrr',
  label: 'MRR',
  compute: (records, ctx) => {
    const rr = reciprocalRanks(records);
    if (!rr.length) return [];
    const depth = recallKs(records, ctx.config).at(-1);
    return [bootstrapped('mrr', 'MRR', rr.length, (idx) => [...idx].reduce((s, i) => s + rr[i], 0) / (idx.length || 1), ctx, { kind: 'mean', unit: 'decimal', note: depth ? `reciprocal rank of the first gold passage within the top ${depth}` : undefined })];
  },
};

/** "map" → "MAP", "ndcg@10" → "nDCG@10", "recall@100" → "Recall@100", "mrr@10" → "MRR@10", "p@30" → "P@30". */
export function measureLabel(name: string): string {
  const [m, k] = name.split('@');
  const base = ({ map: 'MAP', ndcg: 'nDCG', recall: 'Recall', mrr: 'MRR', p: 'P', recip_rank: 'MRR' } as Record<string, string>)[m.toLowerCase()] ?? m;
  return k === undefined ? base : `${base}@${k}`;
}

/** A TREC run: the mean of every measure it recorded (config.metrics: MAP, P@30, …), decimals. */
const trecMeasures: HeadlineMetric = {
  id: 'trec-measures',
  label: 'TREC measures',
  compute: (records, ctx) => {
    const names = Array.isArray(ctx.config.metrics) ? ctx.config.metrics.filter((m): m is string => typeof m === 'string') : [];
    return names.flatMap((name) => {
      const xs = records.map((r) => num(r.metrics?.[name])).filter((x): x is number => x !== null);
      return xs.length ? [figureOf(name, measureLabel(name), perItemInterval(xs, ctx), { unit: 'decimal' })] : [];
    });
  },
};

/** 3-ply: pooled Σ over triples (the paper's micro average), bootstrapped over triples. */
function pooled(id: string, label: string, num_: (m: Record<string, unknown>) => number, den: (m: Record<string, unknown>) => number, transform: (ratio: number) => number): HeadlineMetric {
  return {
    id,
    label,
    compute: (records, ctx) => {
      const ms = records.filter((r) => r.metrics && typeof r.metrics.nGt === 'number').map((r) => r.metrics as Record<string, unknown>);
      if (!ms.length) return [];
      const stat = (idx: Int32Array) => {
        let a = 0;
        let b = 0;
        for (const i of idx) {
          a += num_(ms[i]);
          b += den(ms[i]);
        }
        return b ? transform(a / b) : 0;
      };
      return [bootstrapped(id, label, ms.length, stat, ctx, { note: 'pooled over triples (micro average)' })];
    },
  };
}

const n0 = (v: unknown) => (typeof v === 'number' ? v : 0);

const threeplyAbstention: HeadlineMetric = {
  id: 'abstention',
  label: 'successful abstention',
  compute: (records) => {
    const designed = records.filter((r) => r.gold === 'abstain');
    if (!designed.length) return [];
    const ok = designed.filter((r) => !isFailed(r) && r.prediction === 'abstain').length;
    return [proportion('abstention', 'successful abstention', ok, designed.length, `over the ${designed.length} triple${designed.length === 1 ? '' : 's'} designed for abstention`)];
  },
};

const defaultMethod = (c: Record<string, unknown>) => str(c.method) ?? str(c.mode) ?? str(c.variant) ?? null;
const defaultK = (c: Record<string, unknown>) => (num(c.k) !== null ? String(c.k) : null);

const cli = (takesIndex: boolean, takesData = false, limit: RunSpec['limit'] = 'limit'): RunSpec => ({ via: 'cli', runDirFlag: '--run-dir', takesIndex, takesData, limit });
const inProcess: RunSpec = { via: 'in-process', runDirFlag: '--run-dir', takesIndex: true, takesData: false, limit: 'limit' };

/** Every system, in the order the runs list groups them. */
export const SYSTEMS: readonly SystemSpec[] = [
  {
    id: 'retrieval',
    name: 'retrieval',
    matches: (s) => s === 'retrieval',
    run: inProcess,
    traceKind: 'retrieval',
    reportSection: null,
    method: (c) => str(c.method),
    k: (c) => (Array.isArray(c.ks) ? c.ks.join(', ') : defaultK(c)),
    headline: [recall, mrr],
    retrieval: true,
  },
  {
    id: 'trec',
    name: 'TREC run',
    matches: (s) => s === 'trec',
    run: { ...inProcess, takesData: true },
    traceKind: 'other',
    reportSection: null,
    method: defaultMethod,
    k: defaultK,
    headline: [trecMeasures],
    retrieval: true,
  },
  {
    id: 'case',
    name: 'CASE',
    matches: (s) => s === 'case',
    run: cli(true),
    traceKind: 'case',
    reportSection: 'case',
    method: (c) => (Array.isArray(c.methods) ? c.methods.join('+') : str(c.method)),
    k: defaultK,
    headline: [accuracy, rate('gold-in-evidence', 'gold passage in evidence', 'goldInAnyEvidence')],
  },
  { id: 'baseline', name: 'baseline (CASE)', matches: (s) => s === 'baseline', run: cli(true), traceKind: 'baseline', reportSection: 'case', method: (c) => str(c.mode), k: defaultK, headline: [accuracy] },
  {
    id: 'mad',
    name: 'MAD',
    matches: (s) => s === 'mad' || s.startsWith('mad/'),
    run: cli(true),
    traceKind: 'mad',
    reportSection: 'mad',
    method: (c) => [str(c.topology), str(c.method)].filter(Boolean).join(' · ') || null,
    k: defaultK,
    headline: [accuracy],
  },
  {
    id: 'acal',
    name: 'ACAL',
    matches: (s) => s === 'acal' || s.startsWith('acal-'),
    run: cli(true, true),
    traceKind: 'acal', // its trace view links each item to its argument graph (the explorer's ACAL view, /api/acal/graph)
    reportSection: 'acal',
    method: (c) => str(c.semantics) ?? defaultMethod(c),
    k: defaultK,
    headline: [macroF1(ACAL_LABELS), accuracy, rate('convergence', 'convergence', 'converged')],
  },
  {
    id: 'threeply',
    name: '3-ply',
    matches: (s) => s === 'threeply',
    run: cli(false, false, 'n'),
    traceKind: 'threeply',
    reportSection: 'threeply',
    method: (c) => str(c.variant),
    k: () => null,
    headline: [
      pooled('hallucination-accuracy', 'hallucination accuracy', (m) => n0(m.nH), (m) => n0(m.nGt), (r) => 1 - r),
      pooled('factor-utilisation-recall', 'factor-utilisation recall', (m) => n0(m.nUtil), (m) => n0(m.nGt), (r) => r),
      threeplyAbstention,
    ],
  },
  {
    id: 'emar',
    name: 'EMAR',
    matches: (s) => s === 'emar',
    run: cli(false),
    traceKind: 'emar',
    reportSection: 'emar',
    method: (c) => str(c.convergence) ?? str(c.embedder),
    k: () => null,
    headline: [macroF1(), accuracy, rate('convergence', 'convergence', 'converged', (r) => !isFailed(r))],
  },
  { id: 'reproduce', name: 'reproduction', matches: (s) => s === 'reproduce', traceKind: 'other', reportSection: null, method: () => null, k: () => null, headline: [] },
];

/** The systems a recipe run may name (`run.system`), in registry order. */
export const RUN_SYSTEM_IDS: readonly string[] = SYSTEMS.filter((s) => s.run).map((s) => s.id);

/** The registry entry of a runnable system by id (undefined for an unknown one). */
export function runnableSystem(id: string): (SystemSpec & { run: RunSpec }) | undefined {
  return SYSTEMS.find((s): s is SystemSpec & { run: RunSpec } => s.id === id && s.run !== undefined);
}

/** Any system not in the registry: its accuracy. */
export const GENERIC_SYSTEM: SystemSpec = { id: 'other', name: 'run', matches: () => true, traceKind: 'other', reportSection: null, method: defaultMethod, k: defaultK, headline: [accuracy] };

/** The registry entry for a config.json `system` value (GENERIC_SYSTEM when none matches). */
export function systemSpec(configSystem: string | null | undefined): SystemSpec {
  return (configSystem ? SYSTEMS.find((s) => s.matches(configSystem)) : undefined) ?? GENERIC_SYSTEM;
}

/** A run's headline figures, as its system declares them (pass the latest record per item). */
export function headlineFigures(configSystem: string | null | undefined, records: readonly ResultRecord[], ctx: FigureContext): HeadlineFigure[] {
  return systemSpec(configSystem).headline.flatMap((m) => m.compute(records, ctx));
}
