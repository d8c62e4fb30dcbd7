/**
 * Per-scenario summary of a 3-ply run from its results.jsonl records (the mode is the id prefix):
 * pooled hallucination accuracy and factor utilization recall, abstention ratio, each with a seeded
 * bootstrap CI over triples (eval/bootstrap), and a markdown table in the paper's layout.
 */
import { isFailed } from '../../eval/metrics/failures.js';
import { bootstrapStatisticCi, type Ci } from '../../eval/bootstrap.js';
import { table } from '../../eval/report/format.js';
import type { ResultRecord } from '../../eval/types.js';
import { hallucinationAccuracy, summarizeByScenario, utilizationRecall, type ScenarioSummary, type ScoredTriple } from './metrics.js';
import { modeOfId } from './scenarios.js';

export interface ScenarioReport extends ScenarioSummary {
  ci: { hallucinationAccuracy: Ci; factorUtilizationRecall: Ci; abstentionRatio: Ci };
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
      let nH = 0, nGt = 0, nUtil = 0;
      for (const i of idx) {
        nH += items[i].nH;
        nGt += items[i].nGt;
        nUtil += items[i].nUtil;
      }
      return { nH, nGt, nUtil };
    };
    const bo = { seed: opts.seed ?? 13, iterations: opts.iterations ?? 2000 };
    return {
      ...s,
      errors: failed.filter((r) => modeOfId(r.id) === s.mode).length,
      ci: {
        hallucinationAccuracy: bootstrapStatisticCi(items.length, (idx) => hallucinationAccuracy(pooled(idx)), bo),
        factorUtilizationRecall: bootstrapStatisticCi(items.length, (idx) => utilizationRecall(pooled(idx)), bo),
        abstentionRatio: bootstrapStatisticCi(items.length, (idx) => idx.reduce((a, i) => a + (items[i].abstained ? 1 : 0), 0) / (idx.length || 1), bo),
      },
    };
  });
}

const pct = (x: number) => (100 * x).toFixed(2);
const withCi = (x: number, ci: Ci) => `${pct(x)} [${pct(ci.lo)}, ${pct(ci.hi)}]`;

/** Markdown table: one row per scenario (percentages with 95% CIs). */
export function summaryMarkdown(system: string, rows: readonly ScenarioReport[]): string {
  const body = rows.map((r) => {
    const abst = `${withCi(r.abstentionRatio, r.ci.abstentionRatio)}${r.abstentionExpected ? '' : ' (wrongful)'}`;
    return [system, r.mode, r.n, withCi(r.hallucinationAccuracy, r.ci.hallucinationAccuracy), withCi(r.factorUtilizationRecall, r.ci.factorUtilizationRecall), abst, r.errors];
  });
  const header = ['system', 'scenario', 'n', 'hallucination accuracy %', 'factor utilization recall %', 'abstention %', 'failed'];
  return table(header, body, ['l', 'l', 'r', 'r', 'r', 'r', 'r']);
}
