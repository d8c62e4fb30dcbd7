/**
 * The headline metrics a system's list entry names (eval/systems.ts `headline`): the builders
 * (accuracy, rate, macro-F1, pooled ratios, Recall@k, MRR, a TREC run's measures, 3-ply abstention)
 * and the figure they give.
 *
 * Intervals come from the one statistics module (eval/stats/): a proportion (accuracy, Recall@k
 * with one gold passage per query, a convergence or abstention rate, a per-item value 0 or 1 on
 * every item — MRR included) gets a Wilson score interval, honest at any n; any other figure
 * (graded MRR, macro-F1, pooled factor ratios) a seeded percentile
 * bootstrap (seed 13, 2,000 resamples), left out below MIN_N = 10 items. Each figure carries the
 * name of its method and its printed text, so report.md, the explorer and the /v1 API print the
 * same thing. Retrieval measures (Recall@k, MRR) are decimals, never percentages. Every figure
 * below SMALL_N items carries a small-n warning.
 */
import {
  figureText,
  methodLabel,
  MIN_N,
  perItemInterval,
  proportionInterval,
  statisticInterval,
  type Interval,
  type MeasureKind,
  pairedDifference,
  type PairedDifference,
  type Unit,
} from './stats/index.js';
import { canonicalById } from './bootstrap.js';
import { correctFlags, isFailed } from './metrics/failures.js';
import { limitPrefixClause, macroCeilingMarker, macroCeilingNote, macroScores } from './metrics/macro.js';
import { MACRO_PAIRED_NOTE, macroF1Paired } from './metrics/macro-paired.js';
import type { ResultRecord } from './types.js';
import { failedMissesNote, goldAbsentFor, goldCoverage, goldCoverageNote, NO_GOLD_IN_INDEX } from './gold-in-index.js';

/** A finite number, else null. */
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Below this n every figure is flagged "small n". */
export const SMALL_N = 30;
/** Below this n no bootstrap interval is given (eval/stats/settings.ts MIN_N). */
export const MIN_BOOTSTRAP_N = MIN_N;

export type IntervalKind = 'wilson' | 'bootstrap' | 'none';

/** One headline figure of a run: a proportion shown as % (`unit: 'percent'`), or a decimal (retrieval measures, `unit: 'decimal'`). */
export interface HeadlineFigure {
  id: string;
  label: string;
  /** null when the figure is over no item (n = 0: every item failed); its text then says "– (no items)". */
  estimate: number | null;
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
  /**
   * A short marker a list of figures prints beside the figure where `note` does not fit: macro-F1 capped
   * below 100% by a label with no gold item ("at most 50.0% here: no gold Yes item"; `note` says why).
   */
  ceiling?: string;
  /** Failed items left out of n (3-ply: a failed triple is in no figure); absent where failures count in n as wrong. */
  failed?: number;
  /** A bootstrap interval's resamples and seed (what it was computed with); absent for Wilson and for no interval. */
  iterations?: number;
  seed?: number;
  /** A stratified bootstrap's strata (3-ply's scenarios, more than one): each resample kept every stratum's count. */
  strata?: number;
}

export interface FigureContext {
  config: Record<string, unknown>;
  /** Bootstrap seed and resamples; default the statistics module's (13, 2,000) — the same on every surface. */
  seed?: number;
  /** The task's label set macro figures average over (`headlineFigures` takes it from the system's `labels`); absent: the labels of the whole sample. */
  labels?: readonly string[];
  iterations?: number;
}

export interface HeadlineMetric {
  id: string;
  label: string;
  /**
   * The per-item metric (results' `metrics` key) whose per-item ratio this figure pools (3-ply's
   * `factorUtilizationRecall`): the per-item metrics table says its row is the mean of those ratios,
   * not this figure.
   */
  perItem?: string;
  /** The figures this metric gives for a run: none when its records cannot give it (no item carries the metric), several for one per k. */
  compute(records: readonly ResultRecord[], ctx: FigureContext): HeadlineFigure[];
  /**
   * How `lexcase compare` compares two runs' figure of this metric on the same items, declared with the
   * metric as its interval is: where both runs' systems name a metric of this id that declares it, the
   * comparison gives this paired statistic (whatever the metric's place in `headline`). Absent: the
   * metric is compared by its per-item values where it has them (accuracy, boolean metrics), else not.
   */
  paired?: PairedStatistic;
}

/** A headline metric's paired comparison (HeadlineMetric `paired`). */
export interface PairedStatistic {
  /** B − A on `pairs` (item i's record in A and in B): the difference, its interval and its test. */
  compute(
    pairs: readonly (readonly [ResultRecord, ResultRecord])[],
    ctx: Pick<FigureContext, 'labels' | 'seed' | 'iterations'> & {
      /** The `--limit` the paired items were taken under (the smaller of the two runs' config.json `limit`s; absent: neither had one). */
      limit?: number;
    },
  ): PairedDifference & { /** What the row is over, when it is not what its note says (compare prints it under the table). */ over?: string };
  unit: Unit;
  /** What the row is and how its interval and p are computed (the comparison's note). */
  note: string;
  /** How a failed item counts in it ("as no prediction in macro-F1"), for the comparison's failed-items line. */
  failed: string;
}

/** A figure from its interval (eval/stats): the numbers, the method's name and the printed text. */
export function figureOf(id: string, label: string, iv: Interval, o: { unit?: Unit; note?: string; ceiling?: string; failed?: number } = {}): HeadlineFigure {
  const unit = o.unit ?? 'percent';
  // over no item there is no value: "– (no items)", never the statistic of an empty set (0% or 100%)
  const none = iv.n === 0;
  return {
    id,
    label,
    estimate: none ? null : iv.estimate,
    lo: iv.lo,
    hi: iv.hi,
    n: iv.n,
    interval: iv.lo === null ? 'none' : iv.method,
    kind: iv.kind,
    unit,
    percent: unit === 'percent',
    method: methodLabel(iv),
    text: figureText({ ...iv, estimate: none ? Number.NaN : iv.estimate }, unit),
    smallN: iv.n < SMALL_N,
    ...(o.note ? { note: o.note } : {}),
    ...(o.ceiling ? { ceiling: o.ceiling } : {}),
    ...(o.failed !== undefined ? { failed: o.failed } : {}),
    ...(iv.lo !== null && iv.method === 'bootstrap' ? { iterations: iv.iterations, seed: iv.seed, ...(iv.strata ? { strata: iv.strata } : {}) } : {}),
  };
}

/** A 0/1 figure: Wilson interval. */
export function proportion(id: string, label: string, successes: number, n: number, note?: string, failed?: number): HeadlineFigure {
  return figureOf(id, label, proportionInterval(successes, n), { note, failed });
}

/** Any other figure: seeded percentile bootstrap of `stat` over resampled items (none below MIN_N). */
export function bootstrapped(
  id: string,
  label: string,
  n: number,
  stat: (idx: Int32Array) => number,
  ctx: Pick<FigureContext, 'seed' | 'iterations'>,
  opts: { unit?: Unit; note?: string; kind?: 'mean' | 'statistic'; failed?: number; strata?: ArrayLike<number> } = {},
): HeadlineFigure {
  return figureOf(id, label, statisticInterval(n, stat, { seed: ctx.seed, iterations: ctx.iterations, kind: opts.kind, strata: opts.strata }), opts);
}

export const accuracy: HeadlineMetric = {
  id: 'accuracy',
  label: 'accuracy',
  compute: (records) =>
    records.length
      ? [
          proportion(
            'accuracy',
            'accuracy',
            correctFlags(records).reduce((a, b) => a + b, 0),
            records.length,
          ),
        ]
      : [],
};

/** Share of scored items whose boolean metric `key` is true (items without it are left out). */
export function rate(id: string, label: string, key: string, filter: (r: ResultRecord) => boolean = () => true): HeadlineMetric {
  return {
    id,
    label,
    compute: (records) => {
      const xs = records.filter((r) => filter(r) && typeof r.metrics?.[key] === 'boolean');
      return xs.length ? [proportion(id, label, xs.filter((r) => r.metrics![key] === true).length, xs.length)] : [];
    },
  };
}

/**
 * A gold-evidence rate (`rate` over the boolean metric `key`): over items none of which has its gold
 * passage in the index (`goldInIndex: false`, eval/gold-in-index.ts) it is not given
 * ("— (no gold passage in this index)", never 0%); over items some of which have none, its note says
 * how many count as misses, and so it does for failed items.
 */
export function goldRate(id: string, label: string, key: string): HeadlineMetric {
  const base = rate(id, label, key);
  return {
    id,
    label,
    compute: (records, ctx) => {
      const counted = records.filter((r) => typeof r.metrics?.[key] === 'boolean');
      return base.compute(records, ctx).map((f) => {
        if (goldAbsentFor(counted, key))
          return { ...f, estimate: null, lo: null, hi: null, interval: 'none', method: 'no interval: no gold passage in this index', text: NO_GOLD_IN_INDEX };
        // a failed item records the gold flags of what its advocates found before it failed (nothing, when it
        // failed first): counted so, and said — a miss, or a hit where its advocates had found the gold
        const failedItems = counted.filter(isFailed);
        const failed = failedItems.length;
        const hits = failedItems.filter((r) => r.metrics?.[key] === true).length;
        const note = [goldCoverageNote(goldCoverage(counted)), failed ? failedMissesNote(failed, hits) : undefined].filter(Boolean).join('; ');
        return note ? { ...f, note } : f;
      });
    },
  };
}

/**
 * Macro-F1 under the one rule of eval/metrics/macro.ts: over the task's label set (`ctx.labels`,
 * which `headlineFigures` takes from the system's `labels`), else over the labels of the whole
 * sample, fixed across resamples; the records resampled in a canonical order.
 */
export const macroF1: HeadlineMetric = {
  id: 'macro-f1',
  label: 'macro-F1',
  compute: (records, ctx) => {
    if (!records.length) return [];
    const m = macroScores(records, { labels: ctx.labels, seed: ctx.seed, iterations: ctx.iterations });
    const note = macroCeilingNote(m.withoutGold, m.labels, records.length);
    const ceiling = note && note + limitPrefixClause(ctx.config.limit);
    return [
      figureOf('macro-f1', 'macro-F1', m.f1, {
        note: [`mean F1 over the labels ${m.labels.join(', ')}`, ceiling].filter(Boolean).join('; '),
        ceiling: macroCeilingMarker(m.withoutGold, m.labels, records.length),
      }),
    ];
  },
  // no per-item mean: the paired bootstrap of the report's macro-F1 and the paired swap test (eval/metrics/macro-paired.ts)
  paired: { compute: macroF1Paired, unit: 'percent', note: MACRO_PAIRED_NOTE, failed: 'as no prediction in macro-F1' },
};

/** The ks a retrieval run recorded (config.ks, else every recall@k key of its records). */
export function recallKs(records: readonly ResultRecord[], config: Record<string, unknown>): number[] {
  const fromConfig = Array.isArray(config.ks) ? config.ks.filter((k): k is number => typeof k === 'number') : [];
  if (fromConfig.length) return [...fromConfig].sort((a, b) => a - b);
  const ks = new Set<number>();
  for (const r of records) for (const key of Object.keys(r.metrics ?? {})) if (/^recall@\d+$/.test(key)) ks.add(Number(key.slice(7)));
  return [...ks].sort((a, b) => a - b);
}

/** Recall@k for every k the run recorded (a decimal, as every retrieval measure). */
export const recall: HeadlineMetric = {
  id: 'recall',
  label: 'Recall@k',
  compute: (records, ctx) => recallKs(records, ctx.config).flatMap((k) => recallAt(records, k, ctx) ?? []),
};

function recallAt(records: readonly ResultRecord[], k: number, ctx: FigureContext): HeadlineFigure | null {
  const xs = records.map((r) => num(r.metrics?.[`recall@${k}`])).filter((x): x is number => x !== null);
  if (!xs.length) return null;
  // one gold passage per query: a 0/1 hit (a proportion, Wilson); graded recall: a mean (bootstrap)
  return figureOf(`recall@${k}`, `Recall@${k}`, perItemInterval(xs, ctx), {
    unit: 'decimal',
    ...leftOut(records, (r) => num(r.metrics?.[`recall@${k}`]) === null),
  });
}

/**
 * A retrieval figure's failed items (an error: the search threw, e.g. an embedding endpoint down): they
 * recorded no ranking and are left out of its n, which the Figures table's "failed (left out of n)"
 * column says — before 2026-12-04 they were left out with nothing to show it.
 */
function leftOut(records: readonly ResultRecord[], missing: (r: ResultRecord) => boolean): { failed?: number } {
  const failed = records.filter((r) => isFailed(r) && missing(r)).length;
  return failed ? { failed } : {};
}

/** Reciprocal rank of the first gold passage per item (0 when none was found), for MRR. */
export function reciprocalRanks(records: readonly ResultRecord[]): number[] {
  return records.filter((r) => r.metrics && 'firstRank' in r.metrics).map((r) => (num(r.metrics!.firstRank) ? 1 / num(r.metrics!.firstRank)! : 0));
}

/** MRR: a mean of per-item values, printed as a decimal (0/1 on every item → Wilson, else bootstrap, as everywhere). */
export const mrr: HeadlineMetric = {
  id: 'mrr',
  label: 'MRR',
  compute: (records, ctx) => {
    const rr = reciprocalRanks(records);
    if (!rr.length) return [];
    const depth = recallKs(records, ctx.config).at(-1);
    return [
      figureOf('mrr', 'MRR', perItemInterval(rr, ctx), {
        unit: 'decimal',
        ...leftOut(records, (r) => !r.metrics || !('firstRank' in r.metrics)),
        note: depth ? `reciprocal rank of the first gold passage within the top ${depth}` : undefined,
      }),
    ];
  },
};

/** "map" → "MAP", "ndcg@10" → "nDCG@10", "recall@100" → "Recall@100", "mrr@10" → "MRR@10", "p@30" → "P@30". */
export function measureLabel(name: string): string {
  const [m, k] = name.split('@');
  const base = ({ map: 'MAP', ndcg: 'nDCG', recall: 'Recall', mrr: 'MRR', p: 'P', recip_rank: 'MRR' } as Record<string, string>)[m.toLowerCase()] ?? m;
  return k === undefined ? base : `${base}@${k}`;
}

/** A TREC run: the mean of every measure it recorded (config.metrics: MAP, P@30, …), decimals. */
export const trecMeasures: HeadlineMetric = {
  id: 'trec-measures',
  label: 'TREC measures',
  compute: (records, ctx) => {
    const names = Array.isArray(ctx.config.metrics) ? ctx.config.metrics.filter((m): m is string => typeof m === 'string') : [];
    // a topic with no hit has no measure (trec_eval skips a topic with no run line): said beside the figure, whose n leaves it out
    const noHits = records.filter((r) => r.error === undefined && r.metrics?.retrieved === 0).length;
    const note = noHits
      ? `over the topics with hits: ${noHits} of ${records.length} returned none and are left out, as trec_eval skips a topic with no line in the run file (\`eval run --complete\` would score them 0)`
      : undefined;
    return names.flatMap((name) => {
      const xs = records.map((r) => num(r.metrics?.[name])).filter((x): x is number => x !== null);
      return xs.length ? [figureOf(name, measureLabel(name), perItemInterval(xs, ctx), { unit: 'decimal', ...(note ? { note } : {}) })] : [];
    });
  },
};

const triples = (n: number, what = '') => `${n} ${what}triple${n === 1 ? '' : 's'}`;

/**
 * "; 6 abstained with no factor argued, counted with N_h = N_util = 0 and their N_gt (the paper's formula); 1
 * abstained after arguing factors, its argued plies scored": how a pooled figure's abstained triples count — one
 * that wrote plies naming factors before its TERMINATE adds their N_h and N_util (docs/threeply.md). The
 * metrics tell only whether the argued plies named a factor (N_h or N_util > 0), not whether any ply was
 * argued: a triple whose plies named none is in the first count (before: "without arguing", which such a
 * triple had not done).
 */
function abstainedNote(ms: readonly Record<string, unknown>[]): string {
  const abstained = ms.filter((m) => m.abstained === true);
  const argued = abstained.filter((m) => n0(m.nH) > 0 || n0(m.nUtil) > 0).length;
  const bare = abstained.length - argued;
  return (
    (bare
      ? `; ${bare} abstained${argued ? ' with no factor argued' : ''}, counted with N_h = N_util = 0 and ${bare === 1 ? 'its' : 'their'} N_gt (the paper's formula)`
      : '') +
    (argued
      ? `; ${argued} abstained after arguing factors, ${argued === 1 ? 'its' : 'their'} argued plies scored (N_h, N_util) with ${argued === 1 ? 'its' : 'their'} N_gt`
      : '')
  );
}

/**
 * 3-ply: pooled Σ over triples (the paper's micro average), bootstrapped over triples. A failed
 * triple (no argument was produced or scored: eval/metrics/failures.ts) adds nothing to either sum
 * and is left out of n; the figure carries the failed count. With every triple failed the figure
 * is over no item: "– (no items)". An abstained triple is in both sums, as the paper's formulas
 * have it (§4.4: N_gt over every triple; "For successful abstentions, Rec_U is 0"): N_h = N_util = 0
 * with its N_gt — so abstentions alone read 100% hallucination accuracy; the note says how many
 * of the triples abstained. `scenarioOf` (3-ply's: the id's scenario prefix) names the scenarios the
 * figure pools and how many triples each adds: paper 000 gives every figure per scenario (Tables 2–4),
 * so a figure over several is said to be pooled over them — "pooled over the 30 answered triples of
 * 3 scenarios (arguable 10, mismatched 10, non-arguable 10; micro average)" — never read as one of its tables' cells.
 * `perItem`: the per-item metric holding each item's own ratio (HeadlineMetric `perItem`).
 */
export function pooled(
  id: string,
  label: string,
  num_: (m: Record<string, unknown>) => number,
  den: (m: Record<string, unknown>) => number,
  transform: (ratio: number) => number,
  scenarioOf?: (id: string) => string | undefined,
  perItem?: string,
): HeadlineMetric {
  return {
    id,
    label,
    ...(perItem ? { perItem } : {}),
    compute: (records, ctx) => {
      const failed = records.filter(isFailed).length;
      // resampled in a canonical order (by id): the interval does not depend on the order of results.jsonl
      const answered = canonicalById(records).filter((r) => !isFailed(r) && r.metrics && typeof r.metrics.nGt === 'number');
      const ms = answered.map((r) => r.metrics as Record<string, unknown>);
      if (!ms.length && !failed) return [];
      const stat = (idx: Int32Array) => {
        let a = 0;
        let b = 0;
        for (const i of idx) {
          a += num_(ms[i]);
          b += den(ms[i]);
        }
        return b ? transform(a / b) : 0;
      };
      // resampled within each scenario: the run fixes each one's count (`--n` per scenario), so a
      // resample keeps it; before, resampling across scenarios mixed them anew each time and widened
      // the interval with a variation the design does not have (pooled recall [24.9, 49.5] → [33.4, 40.9])
      const modes = scenarioOf ? answered.map((r) => scenarioOf(r.id) ?? '') : [];
      const index = new Map([...new Set(modes)].map((m, i) => [m, i]));
      const strata = scenarioOf ? Int32Array.from(modes, (m) => index.get(m)!) : undefined;
      const within = index.size > 1 && ms.length >= MIN_N ? '; resampled within each scenario' : '';
      return [
        bootstrapped(id, label, ms.length, stat, ctx, {
          note: `pooled over the ${triples(ms.length, 'answered ')}${scenariosText(answered, scenarioOf, within)}${abstainedNote(ms)}`,
          failed,
          strata,
        }),
      ];
    },
  };
}

export const n0 = (v: unknown) => (typeof v === 'number' ? v : 0);

/**
 * The scenarios `records` pool and each one's count, in order of first appearance (records in id order:
 * scenarios alphabetically): "3 scenarios (arguable 10, mismatched 10, non-arguable 10" — the caller
 * closes the parenthesis —, "1 scenario (arguable"; null without `scenarioOf` or records.
 */
function scenarioList(records: readonly ResultRecord[], scenarioOf: ((id: string) => string | undefined) | undefined): string | null {
  if (!scenarioOf || !records.length) return null;
  const counts = new Map<string, number>();
  for (const r of canonicalById(records)) {
    const s = scenarioOf(r.id) ?? 'no scenario';
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const list = [...counts].map(([s, n]) => (counts.size === 1 ? s : `${s} ${n}`)).join(', ');
  return `${counts.size} scenario${counts.size === 1 ? '' : 's'} (${list}`;
}

/** " of 3 scenarios (arguable 10, mismatched 10, non-arguable 10; micro average)" (`tail` before its closing parenthesis), or " (micro average)" where no scenario is named. */
function scenariosText(records: readonly ResultRecord[], scenarioOf: ((id: string) => string | undefined) | undefined, tail = ''): string {
  const list = scenarioList(records, scenarioOf);
  return list ? ` of ${list}; micro average${tail})` : ' (micro average)';
}

/**
 * Why the pooled abstention figure keeps Wilson where the pooled ratios resample within each scenario:
 * a resampled 0/1 figure collapses to a point at 0% or 100% (every triple abstained: [100, 100]), and
 * with the scenarios' counts fixed the stratified variance, Σ n_s p_s(1 − p_s) / N², is never above the
 * pooled p(1 − p) / N, so Wilson's is conservative (mismatched 9 of 10, non-arguable 3 of 10:
 * Wilson [38.7, 78.1], numpy's stratified bootstrap [45.0, 75.0]).
 */
export const POOLED_WILSON =
  '; Wilson over the pooled triples, not resampled within each scenario: a 0/1 figure’s resamples collapse at 0% or 100%, and Wilson’s is conservative (the within-scenario variance is never above the pooled one)';

/**
 * 3-ply: N_sa / N_ta over the answered triples designed for abstention (paper 000 eq. 6: every
 * mismatched and non-arguable triple); a failed triple is not an abstention and is left out (counted
 * beside). `scenarioOf` names the scenarios pooled, as `pooled`'s does: the paper's Table 4 gives
 * each apart, so "over the 20 answered triples designed for abstention, pooled over 2 scenarios
 * (mismatched 10, non-arguable 10)" says this figure is none of its cells.
 */
export function threeplyAbstention(scenarioOf?: (id: string) => string | undefined): HeadlineMetric {
  return {
    id: 'abstention',
    label: 'successful abstention',
    compute: (records) => {
      const designed = records.filter((r) => r.gold === 'abstain');
      if (!designed.length) return [];
      const answered = designed.filter((r) => !isFailed(r));
      const ok = answered.filter((r) => r.prediction === 'abstain').length;
      const failed = designed.length - answered.length;
      const list = scenarioList(answered, scenarioOf);
      const over = list ? (list.startsWith('1 ') ? ` (${list.slice(list.indexOf('(') + 1)})` : `, pooled over ${list})${POOLED_WILSON}`) : '';
      return [
        proportion(
          'abstention',
          'successful abstention',
          ok,
          answered.length,
          `over the ${triples(answered.length, 'answered ')} designed for abstention${over}`,
          failed,
        ),
      ];
    },
    // compared on the same triples as the figure is over: those designed for abstention that both runs answered. Before,
    // `compare` had no row for it and did not name it among the figures not compared; its only abstention row was the
    // per-item `abstained` mean over every triple, where abstaining on an arguable triple (a wrong answer) reads as a rise
    paired: {
      unit: 'percent',
      note: 'successful abstention: over the triples designed for abstention (mismatched and non-arguable) that both runs answered, 1 where the run abstained, as the headline figure (paired bootstrap interval, exact McNemar p).',
      failed: 'left out of successful abstention (a failed triple is no abstention, as in the headline figure)',
      compute: (pairs, ctx) => {
        const designed = pairs.filter(([a, b]) => a.gold === 'abstain' && b.gold === 'abstain');
        const both = designed.filter(([a, b]) => !isFailed(a) && !isFailed(b));
        const abstained = (r: ResultRecord) => (r.prediction === 'abstain' ? 1 : 0);
        const d = pairedDifference(
          both.map(([a]) => abstained(a)),
          both.map(([, b]) => abstained(b)),
          { iterations: ctx.iterations, seed: ctx.seed },
        );
        const left = designed.length - both.length;
        return {
          ...d,
          over: `over the ${triples(both.length, '')} designed for abstention both runs answered${left ? ` (${left} failed in a run: left out)` : ''}, of the ${pairs.length} shared`,
        };
      },
    },
  };
}
