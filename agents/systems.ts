/**
 * The system registry: one entry per kind of run lexcase writes (config.json's `system`), each
 * declaring its display name, how to read its method / k / model from the config, and its headline
 * metrics — the figures the explorer's runs list, run page and compare view show (and any other
 * reader: the library exports `systemSpec` and `headlineFigures`). One place: a new system adds an
 * entry here, and every view shows its figures.
 *
 * Entries are objects so more per-system facts can be added as fields (issue 28: the run-dir flag,
 * whether the system takes an index, its trace kind, its report section).
 *
 * Intervals: a 0/1 figure (accuracy, Recall@k with one gold passage per query, a convergence or
 * abstention rate) gets a Wilson score interval (eval/wilson.ts), honest at any n; any other figure
 * (MRR, macro-F1, pooled factor ratios) a seeded percentile bootstrap, left out below
 * MIN_BOOTSTRAP_N items where a bootstrap says nothing. Every figure below SMALL_N items carries a
 * small-n warning.
 */
import { bootstrapStatisticCi } from '../eval/bootstrap.js';
import { classificationReport } from '../eval/metrics/classification.js';
import { correctFlags, isFailed, scoredPrediction } from '../eval/metrics/failures.js';
import type { ResultRecord } from '../eval/types.js';
import { wilsonCi } from '../eval/wilson.js';
import { ACAL_LABELS } from './acal/metrics.js';

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

export interface SystemSpec {
  /** Registry key. */
  id: string;
  /** Display name. */
  name: string;
  /** config.json `system` values this entry covers. */
  matches(configSystem: string): boolean;
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

/** Every system, in the order the runs list groups them. */
export const SYSTEMS: readonly SystemSpec[] = [
  {
    id: 'retrieval',
    name: 'retrieval',
    matches: (s) => s === 'retrieval',
    method: (c) => str(c.method),
    k: (c) => (Array.isArray(c.ks) ? c.ks.join(', ') : defaultK(c)),
    headline: [recall, mrr],
  },
  {
    id: 'case',
    name: 'CASE',
    matches: (s) => s === 'case',
    method: (c) => (Array.isArray(c.methods) ? c.methods.join('+') : str(c.method)),
    k: defaultK,
    headline: [accuracy, rate('gold-in-evidence', 'gold passage in evidence', 'goldInAnyEvidence')],
  },
  { id: 'baseline', name: 'baseline (CASE)', matches: (s) => s === 'baseline', method: (c) => str(c.mode), k: defaultK, headline: [accuracy] },
  {
    id: 'mad',
    name: 'MAD',
    matches: (s) => s === 'mad' || s.startsWith('mad/'),
    method: (c) => [str(c.topology), str(c.method)].filter(Boolean).join(' · ') || null,
    k: defaultK,
    headline: [accuracy],
  },
  {
    id: 'acal',
    name: 'ACAL',
    matches: (s) => s === 'acal' || s.startsWith('acal-'),
    method: (c) => str(c.semantics) ?? defaultMethod(c),
    k: defaultK,
    headline: [macroF1(ACAL_LABELS), accuracy, rate('convergence', 'convergence', 'converged')],
  },
  {
    id: 'threeply',
    name: '3-ply',
    matches: (s) => s === 'threeply',
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
    method: (c) => str(c.convergence) ?? str(c.embedder),
    k: () => null,
    headline: [macroF1(), accuracy, rate('convergence', 'convergence', 'converged', (r) => !isFailed(r))],
  },
  { id: 'reproduce', name: 'reproduction', matches: (s) => s === 'reproduce', method: () => null, k: () => null, headline: [] },
];

/** Any system not in the registry: its accuracy. */
export const GENERIC_SYSTEM: SystemSpec = { id: 'other', name: 'run', matches: () => true, method: defaultMethod, k: defaultK, headline: [accuracy] };

/** The registry entry for a config.json `system` value (GENERIC_SYSTEM when none matches). */
export function systemSpec(configSystem: string | null | undefined): SystemSpec {
  return (configSystem ? SYSTEMS.find((s) => s.matches(configSystem)) : undefined) ?? GENERIC_SYSTEM;
}

/** A run's headline figures, as its system declares them (pass the latest record per item). */
export function headlineFigures(configSystem: string | null | undefined, records: readonly ResultRecord[], ctx: FigureContext): HeadlineFigure[] {
  return systemSpec(configSystem).headline.flatMap((m) => m.compute(records, ctx));
}
