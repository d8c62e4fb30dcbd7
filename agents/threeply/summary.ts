/**
 * Per-scenario summary of a 3-ply run from its results.jsonl records (the mode is the id prefix):
 * pooled hallucination accuracy and factor utilization recall (pooled ratios: a seeded percentile
 * bootstrap over triples, none below n = 10), abstention ratio (a proportion: Wilson) — every
 * interval from eval/stats — and a markdown table in the paper's layout. Failed items are left out
 * of n and of every figure, and counted per scenario beside them (ScenarioReport).
 */
import { canonicalById } from '../../eval/bootstrap.js';
import { isFailed } from '../../eval/metrics/failures.js';
import { figureText, METHOD_LABEL, proportionInterval, statisticInterval, type Interval } from '../../eval/stats/index.js';
import { table } from '../../eval/report/format.js';
import type { ResultRecord } from '../../eval/types.js';
import { hallucinationAccuracy, summarizeByScenario, utilizationRecall, type ScenarioSummary, type ScoredTriple } from './metrics.js';
import { FACTOR_UTILIZATION_RECALL, HALLUCINATION_ACCURACY } from './measure-names.js';
import { expectedBehaviour, modeOfId, SCENARIO_MODES } from './scenarios.js';

/**
 * One scenario's row. A failed item (LLM output unparseable twice, a request refused, ...: the rule
 * of eval/metrics/failures.ts) produced no argument, so none of the paper's measures is defined
 * for it: it is no abstention and adds nothing to N_h, N_util or N_gt. It is left out of n and of
 * every figure and counted in `errors`, shown beside. A scenario whose every item failed has n = 0
 * and no figures (null; printed "– (no items)").
 */
export interface ScenarioReport extends Omit<ScenarioSummary, 'hallucinationAccuracy' | 'factorUtilizationRecall' | 'abstentionRatio'> {
  /** Pooled Acc_H over the answered triples; null when none was answered. */
  hallucinationAccuracy: number | null;
  factorUtilizationRecall: number | null;
  abstentionRatio: number | null;
  ci: { hallucinationAccuracy: Interval; factorUtilizationRecall: Interval; abstentionRatio: Interval };
  /** Failed items of this scenario, left out of n and of the figures. */
  errors: number;
}

/**
 * The answered triples, scored, and the failed records apart (never scored), in a canonical order
 * (by id): the pooled figures' bootstrap resamples positions, so its interval does not depend on
 * the order of results.jsonl (a retry rewrites it).
 */
export function scoredFromRecords(records: readonly ResultRecord[]): { scored: ScoredTriple[]; failed: ResultRecord[] } {
  const scored: ScoredTriple[] = [];
  const failed: ResultRecord[] = [];
  for (const r of canonicalById(records)) {
    const mode = modeOfId(r.id);
    const m = r.metrics ?? {};
    if (isFailed(r)) failed.push(r);
    else if (mode && typeof m.nGt === 'number')
      scored.push({ mode, nH: Number(m.nH ?? 0), nGt: m.nGt, nUtil: Number(m.nUtil ?? 0), abstained: m.abstained === true });
  }
  return { scored, failed };
}

export function summarizeRun(records: readonly ResultRecord[], opts: { seed?: number; iterations?: number } = {}): ScenarioReport[] {
  const { scored, failed } = scoredFromRecords(records);
  const answered = new Map(summarizeByScenario(scored).map((s) => [s.mode, s]));
  const bo = { seed: opts.seed, iterations: opts.iterations };
  return SCENARIO_MODES.flatMap((mode): ScenarioReport[] => {
    const errors = failed.filter((r) => modeOfId(r.id) === mode).length;
    const s = answered.get(mode);
    if (!s) {
      if (!errors) return [];
      // every item of the scenario failed: no figure (an empty pool is neither 0% nor 100%)
      const none = statisticInterval(0, () => Number.NaN, bo);
      return [
        {
          mode,
          n: 0,
          hallucinationAccuracy: null,
          factorUtilizationRecall: null,
          abstained: 0,
          abstentionRatio: null,
          abstentionExpected: expectedBehaviour(mode) === 'abstain',
          errors,
          ci: { hallucinationAccuracy: none, factorUtilizationRecall: none, abstentionRatio: proportionInterval(0, 0) },
        },
      ];
    }
    const items = scored.filter((x) => x.mode === mode);
    const pooled = (idx: Int32Array) => {
      let nH = 0,
        nGt = 0,
        nUtil = 0;
      for (const i of idx) {
        nH += items[i].nH;
        nGt += items[i].nGt;
        nUtil += items[i].nUtil;
      }
      return { nH, nGt, nUtil };
    };
    return [
      {
        ...s,
        errors,
        ci: {
          hallucinationAccuracy: statisticInterval(items.length, (idx) => hallucinationAccuracy(pooled(idx)), bo),
          factorUtilizationRecall: statisticInterval(items.length, (idx) => utilizationRecall(pooled(idx)), bo),
          abstentionRatio: proportionInterval(items.filter((x) => x.abstained).length, items.length),
        },
      },
    ];
  });
}

const withCi = (x: number | null, ci: Interval) => figureText({ ...ci, estimate: x ?? Number.NaN }, 'percent');

/** Markdown table: one row per scenario (percentages with their 95% intervals, the method named in the header). */
export function summaryMarkdown(system: string, rows: readonly ScenarioReport[]): string {
  const body = rows.map((r) => {
    const abst = `${withCi(r.abstentionRatio, r.ci.abstentionRatio)}${r.abstentionExpected ? '' : ' (wrongful)'}`;
    return [
      system,
      r.mode,
      r.n,
      withCi(r.hallucinationAccuracy, r.ci.hallucinationAccuracy),
      withCi(r.factorUtilizationRecall, r.ci.factorUtilizationRecall),
      abst,
      r.errors,
    ];
  });
  const header = [
    'system',
    'scenario',
    'n',
    `${HALLUCINATION_ACCURACY} [${METHOD_LABEL.bootstrap}]`,
    `${FACTOR_UTILIZATION_RECALL} [${METHOD_LABEL.bootstrap}]`,
    `abstention [${METHOD_LABEL.wilson}]`,
    'failed (left out of n)',
  ];
  return table(header, body, ['l', 'l', 'r', 'r', 'r', 'r', 'r']);
}
