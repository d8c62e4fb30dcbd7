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
 * Intervals: a 0/1 figure (accuracy, Recall@k with one gold passage per query, a convergence or
 * abstention rate) gets a Wilson score interval (eval/wilson.ts), honest at any n; any other figure
 * (MRR, macro-F1, pooled factor ratios) a seeded percentile bootstrap, left out below
 * MIN_BOOTSTRAP_N items where a bootstrap says nothing. Every figure below SMALL_N items carries a
 * small-n warning.
 */
import { bootstrapStatisticCi } from './bootstrap.js';
import { classificationReport } from './metrics/classification.js';
import { correctFlags, isFailed, scoredPrediction } from './metrics/failures.js';
import type { ResultRecord } from './types.js';
import { wilsonCi } from './wilson.js';

/** ACAL's answer labels (agents/acal/metrics.ts reads them from here: one definition). */
export const ACAL_LABELS = ['Yes', 'No'] as const;

/** Below this n every figure is flagged "small n". */
export const SMALL_N = 30;
/** Below this n no bootstrap interval is given (a handful of items resampled says nothing). */
export const MIN_BOOTSTRAP_N = 10;

export type IntervalKind = 'wilson' | 'bootstrap' | 'none';

/** One headline figure of a run: a value in [0, 1] (shown as %), or a plain number (`percent: false`). */
export interface HeadlineFigure {
  id: string;
  label: string;
  estimate: number;
  /** null when no interval is given (n below MIN_BOOTSTRAP_N for a bootstrap figure). */
  lo: number | null;
  hi: number | null;
  /** Items the figure is computed over. */
  n: number;
  interval: IntervalKind;
  percent: boolean;
  /** Set below SMALL_N items. */
  smallN: boolean;
  /** e.g. "over the 1 triple designed for abstention". */
  note?: string;
}

export interface FigureContext {
  config: Record<string, unknown>;
  seed: number;
}

export interface HeadlineMetric {
  id: string;
  label: string;
  /** The figures this metric gives for a run: none when its records cannot give it (no item carries the metric), several for one per k. */
  compute(records: readonly ResultRecord[], ctx: FigureContext): HeadlineFigure[];
}

/** The explorer's trace views (web/app/run-view.ts has one renderer per kind). */
export const TRACE_KINDS = ['case', 'mad', 'emar', 'threeply', 'retrieval', 'baseline', 'other'] as const;
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

const figure = (id: string, label: string, f: Omit<HeadlineFigure, 'id' | 'label' | 'smallN' | 'percent'> & { percent?: boolean }): HeadlineFigure => ({
  id,
  label,
  percent: true,
  ...f,
  smallN: f.n < SMALL_N,
});

/** A 0/1 figure: Wilson interval. */
export function proportion(id: string, label: string, successes: number, n: number, note?: string): HeadlineFigure {
  const w = wilsonCi(successes, n);
  return figure(id, label, { estimate: w.estimate, lo: n ? w.lo : null, hi: n ? w.hi : null, n, interval: n ? 'wilson' : 'none', ...(note ? { note } : {}) });
}

/** Any other figure: seeded percentile bootstrap of `stat` over resampled items (none below MIN_BOOTSTRAP_N). */
export function bootstrapped(id: string, label: string, n: number, stat: (idx: Int32Array) => number, seed: number, opts: { percent?: boolean; note?: string } = {}): HeadlineFigure {
  const identity = Int32Array.from({ length: n }, (_, i) => i);
  if (n < MIN_BOOTSTRAP_N) return figure(id, label, { estimate: stat(identity), lo: null, hi: null, n, interval: 'none', ...opts });
  const ci = bootstrapStatisticCi(n, stat, { iterations: 1000, seed });
  return figure(id, label, { estimate: ci.estimate, lo: ci.lo, hi: ci.hi, n, interval: 'bootstrap', ...opts });
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
    return [bootstrapped('macro-f1', 'macro-F1', records.length, (idx) => classificationReport([...idx].map((i) => preds[i]), [...idx].map((i) => golds[i]), labels).macroF1, ctx.seed)];
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

/** Recall@k for every k the run recorded. */
const recall: HeadlineMetric = {
  id: 'recall',
  label: 'Recall@k',
  compute: (records, ctx) => recallKs(records, ctx.config).flatMap((k) => recallAt(records, k, ctx.seed) ?? []),
};

function recallAt(records: readonly ResultRecord[], k: number, seed: number): HeadlineFigure | null {
  const xs = records.map((r) => num(r.metrics?.[`recall@${k}`])).filter((x): x is number => x !== null);
  if (!xs.length) return null;
  const id = `recall@${k}`;
  const label = `Recall@${k}`;
  // one gold passage per query: a 0/1 hit (Wilson); graded recall: bootstrap of the mean
  if (xs.every((x) => x === 0 || x === 1)) return proportion(id, label, xs.filter((x) => x === 1).length, xs.length);
  return bootstrapped(id, label, xs.length, (idx) => [...idx].reduce((s, i) => s + xs[i], 0) / (idx.length || 1), seed);
}

const mrr: HeadlineMetric = {
  id: 'mrr',
  label: 'MRR',
  compute: (records, ctx) => {
    const rr = records.filter((r) => r.metrics && 'firstRank' in r.metrics).map((r) => (num(r.metrics!.firstRank) ? 1 / num(r.metrics!.firstRank)! : 0));
    if (!rr.length) return [];
    const depth = recallKs(records, ctx.config).at(-1);
    return [bootstrapped('mrr', 'MRR', rr.length, (idx) => [...idx].reduce((s, i) => s + rr[i], 0) / (idx.length || 1), ctx.seed, { note: depth ? `reciprocal rank of the first gold passage within the top ${depth}` : undefined })];
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
      return [bootstrapped(id, label, ms.length, stat, ctx.seed, { note: 'pooled over triples (micro average)' })];
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
    headline: [accuracy],
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
    traceKind: 'other', // its items are argument graphs: the explorer's ACAL view (/api/acal/graph)
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
