/**
 * Per-scenario summary of a 3-ply run from its results.jsonl records (the mode is the id prefix):
 * pooled hallucination accuracy and factor utilization recall (pooled ratios: a seeded percentile
 * bootstrap over triples, none below n = 10), abstention ratio (a proportion: Wilson) — every
 * interval from eval/stats — and a markdown table in the paper's layout.
 */
import { isFailed } from '../../eval/metrics/failures.js';
import { figureText, METHOD_LABEL, proportionInterval, statisticInterval, type Interval } from '../../eval/stats/index.js';
import { table } from '../../eval/report/format.js';
import type { ResultRecord } from '../../eval/types.js';
import { hallucinationAccuracy, summarizeByScenario, utilizationRecall, type ScenarioSummary, type ScoredTriple } from './metrics.js';
import { modeOfId } from './scenarios.js';

export interface ScenarioReport extends ScenarioSummary {
  ci: { hallucinationAccuracy: Interval; factorUtilizationRecall: Interval; abstentionRatio: Interval };
  /**
   * Items that failed (LLM output unparseable twice, ...). They stay in the figures as abstentions
   * (no argument was produced: N_h = N_util = 0 over the triple's N_gt, abstained) — the one rule of
   * eval/metrics/failures.ts — when the record carries the triple's N_gt; the count is shown beside.
   */
  errors: number;
}

export function scoredFromRecords(records: readonly ResultRecord[]): { scored: ScoredTriple[]; failed: ResultRecord[] } {
  const scored: ScoredTriple[] = [];
  const failed: ResultRecord[] = [];
  for (const r of records) {
    const mode = modeOfId(r.id);
    const m = r.metrics ?? {};
    if (isFailed(r)) failed.push(r);
    if (!mode || typeof m.nGt !== 'number') continue;
    if (isFailed(r)) scored.push({ mode, nH: 0, nGt: m.nGt, nUtil: 0, abstained: true });
    else scored.push({ mode, nH: Number(m.nH ?? 0), nGt: m.nGt, nUtil: Number(m.nUtil ?? 0), abstained: m.abstained === true });
  }
  return { scored, failed };
}

export function summarizeRun(records: readonly ResultRecord[], opts: { seed?: number; iterations?: number } = {}): ScenarioReport[] {
  const { scored, failed } = scoredFromRecords(records);
  return summarizeByScenario(scored).map((s) => {
    const items = scored.filter((x) => x.mode === s.mode);
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
    const bo = { seed: opts.seed, iterations: opts.iterations };
    return {
      ...s,
      errors: failed.filter((r) => modeOfId(r.id) === s.mode).length,
      ci: {
        hallucinationAccuracy: statisticInterval(items.length, (idx) => hallucinationAccuracy(pooled(idx)), bo),
        factorUtilizationRecall: statisticInterval(items.length, (idx) => utilizationRecall(pooled(idx)), bo),
        abstentionRatio: proportionInterval(items.filter((x) => x.abstained).length, items.length),
      },
    };
  });
}

const withCi = (x: number, ci: Interval) => figureText({ ...ci, estimate: x }, 'percent');

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
    `hallucination accuracy [${METHOD_LABEL.bootstrap}]`,
    `factor utilization recall [${METHOD_LABEL.bootstrap}]`,
    `abstention [${METHOD_LABEL.wilson}]`,
    'failed',
  ];
  return table(header, body, ['l', 'l', 'r', 'r', 'r', 'r', 'r']);
}
