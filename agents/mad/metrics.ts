/**
 * MAD run metrics (paper 002 §4.2) from results.jsonl records:
 * - accuracy with its 95% Wilson interval (eval/stats: a proportion; failed items count as wrong);
 * - citation quality, over the citations backing each answer (citation-summary.ts): share that
 *   exist in the index, share the lexical support check accepts, share the judge did not flag
 *   (MAD), share the author had been shown, and gold coverage (a gold passage cited / in the pool);
 *   each is the mean over the answered items where it is defined, with its item count (a failed item
 *   has no answer and so no answer citations: left out, not 0 — before, 2 failed of 6 items read
 *   "citations per answer 0.33, items 6"); "gold passage in the evidence" is over every item that
 *   records it (the debate's pool exists without a verdict); items whose question
 *   has no gold passage in the index (`goldInIndex: false`, eval/gold-in-index.ts) count as gold
 *   misses, said under the table, and a gold row over none but such items is "— (no gold passage in this index)";
 * - the citations a model wrote as no handle it was shown ("P3, P5", "P99"), counted under the table
 *   (unresolvedCitations: before 2026-12-01 uncounted, and "(P3)", "P3." among them);
 * - the judge's checklist (mean items ticked, of 5) and debater forfeits;
 * - consistency across seeds (seedConsistency): over the items every run answered, the mean share
 *   of run pairs with the same prediction, and the share of items where all runs agree.
 * - the replies that named a model other than the one asked (eval/reply-models.ts) and, when the
 *   replies carried more than one, their system_fingerprints (eval/reply-fingerprints.ts), as
 *   report.md's Run section says them (before, mad-metrics.md said neither).
 * Paired comparisons between runs are `lexcase compare` (eval/report/compare.ts).
 */
import { errors } from '../../core/errors.js';
import { checkSeed } from '../../core/rng.js';
import { correctFlags, failedCount, isFailed } from '../../eval/metrics/failures.js';
import { figureText, methodLabel, proportionInterval, type Interval } from '../../eval/stats/index.js';
import type { ResultRecord } from '../../eval/types.js';
import { roundIntervals } from '../../eval/plots/round-accuracy.js';
import { table } from '../../eval/report/format.js';
import { replyFingerprintsOf, replyFingerprintsText } from '../../eval/reply-fingerprints.js';
import { replyModelsOf, replyModelsText } from '../../eval/reply-models.js';
import { runUnresolvedCitations, unresolvedCitationsText } from '../../eval/run-counts.js';
import { goldAbsentFor, goldCoverage, goldCoverageNote, NO_GOLD_IN_INDEX, type GoldCoverage } from '../../eval/gold-in-index.js';

export interface MeanOf {
  mean: number | null;
  n: number;
  /** Why there is no mean over n items: NO_GOLD_IN_INDEX for a gold row over items none of which has its gold passage in the index. */
  text?: string;
}

export interface MadMetrics {
  items: number;
  failed: number;
  /** Items with an answer: the answer-citation rows are over these. */
  answered: number;
  accuracy: Interval;
  citations: {
    perAnswer: MeanOf;
    exist: MeanOf;
    supportive: MeanOf;
    judgeSupportive: MeanOf;
    seen: MeanOf;
    goldCited: MeanOf;
    goldInPool: MeanOf;
  };
  /**
   * Citations, in any reply of an item (briefs, the judge's, the baselines' answers), that named no passage handle the
   * model was shown ("P3, P5", "P99"; agents/common/passage-handles.ts `cite`), and the items with any: kept as written,
   * each counts as a cited id not in the index and not seen. Absent for runs that do not record it (before 2026-12-01).
   */
  unresolvedCitations?: { citations: number; items: number };
  /** Items that record whether their gold passage is in the index, and how many have none there (absent for runs that do not record it). */
  goldInIndex?: GoldCoverage;
  checklist: MeanOf;
  forfeits: MeanOf;
  /** Items whose verdict went to a debater whose final brief was forfeited: in accuracy, in no answer-citation figure or checklist; absent when none. */
  winnerForfeited?: number;
  /** With --judge-each-round: accuracy of the judge's verdict after each round, with 95% Wilson intervals. */
  byRound: { round: number; accuracy: Interval }[];
  /** Replies that named a model other than the one asked, by name, and the LLM calls they are of (absent when none did). */
  replyModels?: { models: Record<string, number>; calls: number; text: string };
  /** Replies by system_fingerprint, when they carried more than one (absent otherwise). */
  systemFingerprints?: { fingerprints: Record<string, number>; calls: number; text: string };
}

export function meanOfMetric(results: readonly ResultRecord[], key: string): MeanOf {
  const vals: number[] = [];
  for (const r of results) {
    const v = r.metrics?.[key];
    if (typeof v === 'number' && Number.isFinite(v)) vals.push(v);
    else if (typeof v === 'boolean') vals.push(v ? 1 : 0);
  }
  // summed in a canonical (sorted) order: results.jsonl lists items as they finished, so a run at
  // --concurrency 4, a resume or a retry lists them otherwise, and a float sum in another order can
  // differ in its last bit (citation shares such as 1/3 and 5/6)
  vals.sort((a, b) => a - b);
  return { mean: vals.length ? vals.reduce((a, b) => a + b, 0) / vals.length : null, n: vals.length };
}

/** A gold row: not given (NO_GOLD_IN_INDEX) over items none of which has its gold passage in the index, never 0%. */
function goldMean(results: readonly ResultRecord[], key: string): MeanOf {
  const m = meanOfMetric(results, key);
  return goldAbsentFor(results, key) ? { mean: null, n: m.n, text: NO_GOLD_IN_INDEX } : m;
}

export function madMetrics(results: readonly ResultRecord[], _seed = 13): MadMetrics {
  const coverage = goldCoverage(results);
  const answered = results.filter((r) => !isFailed(r));
  return {
    items: results.length,
    failed: failedCount(results),
    answered: answered.length,
    accuracy: proportionInterval(
      correctFlags(results).reduce((a, b) => a + b, 0),
      results.length,
    ),
    citations: {
      perAnswer: meanOfMetric(answered, 'citations'),
      exist: meanOfMetric(answered, 'citationsExist'),
      supportive: meanOfMetric(answered, 'citationsSupportive'),
      judgeSupportive: meanOfMetric(answered, 'citationsJudgeSupportive'),
      seen: meanOfMetric(answered, 'citationsSeen'),
      goldCited: goldMean(answered, 'goldCited'),
      goldInPool: goldMean(results, 'goldInPool'),
    },
    ...(results.some((r) => typeof r.metrics?.unresolvedCitations === 'number') ? { unresolvedCitations: runUnresolvedCitations(results) } : {}),
    ...(coverage ? { goldInIndex: coverage } : {}),
    checklist: meanOfMetric(results, 'checklist'),
    forfeits: meanOfMetric(results, 'forfeits'),
    ...(results.some((r) => r.metrics?.winnerForfeited === true) ? { winnerForfeited: results.filter((r) => r.metrics?.winnerForfeited === true).length } : {}),
    byRound: roundIntervals(results),
    ...replyFields(results),
  };
}

/** The replyModels / systemFingerprints fields of MadMetrics: present only when there is something to say. */
function replyFields(results: readonly ResultRecord[]): Pick<MadMetrics, 'replyModels' | 'systemFingerprints'> {
  const models = replyModelsOf(results);
  const fps = replyFingerprintsOf(results);
  const fpText = replyFingerprintsText(results);
  return {
    ...(models.models.length ? { replyModels: { models: Object.fromEntries(models.models), calls: models.calls, text: replyModelsText(results) } } : {}),
    ...(fpText ? { systemFingerprints: { fingerprints: Object.fromEntries(fps.fingerprints), calls: fps.calls, text: fpText } } : {}),
  };
}

export interface SeedConsistency {
  runs: number;
  /** Items present (with a non-failed prediction) in every run. */
  items: number;
  /** Items in any of the runs (answered or failed): the `items` are counted of these. Absent in a consistency.json written before it was recorded. */
  total?: number;
  /** Mean over items of the share of run pairs that agree. */
  pairwiseAgreement: number | null;
  /** Share of items where every run gave the same prediction. */
  unanimous: number | null;
}

/**
 * Seeds of a consistency run: at least two, all distinct. A repeated seed (`13,13`, or `13,013`) is
 * no second run: its run dir is the first one's, resumed, and its agreement with itself read 100%.
 * `given` is the seeds as written (named in the error); `field` the flag or option.
 */
export function checkSeeds(seeds: readonly number[], field = 'seeds', given: readonly string[] = seeds.map(String)): void {
  if (seeds.length < 2) throw errors.invalidInput(field, `need at least two seeds for consistency, got ${seeds.length}`);
  for (const seed of seeds) checkSeed(seed, field); // 1 and 1.5 drew the same: one run twice
  const first = new Map<number, number>();
  const repeats: string[] = [];
  for (const [i, seed] of seeds.entries()) {
    const j = first.get(seed);
    if (j === undefined) first.set(seed, i);
    else repeats.push(given[j] === given[i] ? `${seed} is given twice` : `"${given[j]}" and "${given[i]}" are both seed ${seed}`);
  }
  if (repeats.length)
    throw errors.invalidInput(
      field,
      `${repeats.join('; ')}: each seed is one run (run dir <run-dir>-s<seed>), so a repeated seed only resumes that run and agrees with it 100%; give distinct seeds`,
    );
}

/** Agreement of predictions across runs (one map id → prediction per seed). */
export function seedConsistency(runs: ReadonlyArray<ReadonlyMap<string, string | null>>): SeedConsistency {
  const total = new Set(runs.flatMap((r) => [...r.keys()])).size;
  if (runs.length < 2) return { runs: runs.length, items: 0, total, pairwiseAgreement: null, unanimous: null };
  // by id (code-unit order), not the first run's results.jsonl order: the sum of the per-item shares is then one figure
  const ids = [...runs[0].keys()].filter((id) => runs.every((r) => typeof r.get(id) === 'string')).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let pairSum = 0;
  let unanimous = 0;
  const pairs = (runs.length * (runs.length - 1)) / 2;
  for (const id of ids) {
    const preds = runs.map((r) => r.get(id) as string);
    let agree = 0;
    for (let a = 0; a < preds.length; a++) for (let b = a + 1; b < preds.length; b++) if (preds[a] === preds[b]) agree++;
    pairSum += agree / pairs;
    if (preds.every((p) => p === preds[0])) unanimous++;
  }
  return {
    runs: runs.length,
    items: ids.length,
    total,
    pairwiseAgreement: ids.length ? pairSum / ids.length : null,
    unanimous: ids.length ? unanimous / ids.length : null,
  };
}

export function predictionsOf(results: readonly ResultRecord[]): Map<string, string | null> {
  return new Map(results.map((r) => [r.id, r.error ? null : r.prediction]));
}

const pct = (v: number | null) => (v === null ? '–' : `${(100 * v).toFixed(1)}%`);
const row = (label: string, m: MeanOf, fmt = pct) => [label, m.text ?? fmt(m.mean), m.n];

/** The line under the table when some items have no gold passage in the index (and a gold row is shown). */
function goldWarning(m: MadMetrics): string[] {
  const note = m.citations.goldCited.n || m.citations.goldInPool.n ? goldCoverageNote(m.goldInIndex) : undefined;
  return note ? ['', `**Warning:** ${note}.`] : [];
}

/**
 * `crossExaminer`: the run's debates had a cross-examination, which only the final judgment reads: with
 * --judge-each-round the last round's row is that judgment, so it is labelled so and a note says the step into it
 * includes the cross-examination (before 2026-12-05 it read as the round's own effect, paper 002's H3).
 */
export function madMetricsMarkdown(m: MadMetrics, title = 'MAD metrics', o: { crossExaminer?: boolean } = {}): string {
  const lastRound = m.byRound.at(-1)?.round;
  const a = m.accuracy;
  return [
    `## ${title}`,
    '',
    `Accuracy: ${figureText(a, 'percent')} ${methodLabel(a)}, n = ${m.items}, failed ${m.failed}`,
    '',
    ...(m.replyModels ? [`Replies named another model: ${m.replyModels.text}`, ''] : []),
    ...(m.systemFingerprints
      ? [
          `Replies carried ${Object.keys(m.systemFingerprints.fingerprints).length} system_fingerprints: ${m.systemFingerprints.text} — the endpoint's backend configuration changed during the run`,
          '',
        ]
      : []),
    ...(m.winnerForfeited
      ? [
          `**${m.winnerForfeited} ${m.winnerForfeited === 1 ? 'verdict went' : 'verdicts went'} to a debater whose final brief was forfeited** (its replies unparseable twice): ${m.winnerForfeited === 1 ? 'that item is' : 'those items are'} in accuracy, and in no answer-citation figure or judge checklist (there is no winning brief).`,
          '',
        ]
      : []),
    ...(m.failed
      ? [
          `Answer citations are over the ${m.answered} answered of ${m.items} items (${m.failed === 1 ? 'the failed one has' : `the ${m.failed} failed have`} no answer); gold passage in the evidence, checklist and forfeits over every item that records them.`,
          '',
        ]
      : []),
    table(
      ['citation quality (answer citations)', 'value', 'items'],
      [
        row(`citations per answer (of ${m.answered} answered)`, m.citations.perAnswer, (v) => (v === null ? '–' : v.toFixed(2))),
        row('cited ids that exist in the index', m.citations.exist),
        row('supportive (lexical check)', m.citations.supportive),
        row('supportive (judge)', m.citations.judgeSupportive),
        row('cited ids the author was shown', m.citations.seen),
        row('gold passage cited', m.citations.goldCited),
        row('gold passage in the evidence', m.citations.goldInPool),
        row('judge checklist items ticked (of 5)', m.checklist, (v) => (v === null ? '–' : v.toFixed(2))),
        row('debater forfeits per item', m.forfeits, (v) => (v === null ? '–' : v.toFixed(2))),
      ],
    ),
    ...goldWarning(m),
    ...(m.unresolvedCitations?.citations
      ? ['', `**Note:** ${unresolvedCitationsText(m.unresolvedCitations)} (kept as written, each counts as a cited id not in the index and not shown).`]
      : []),
    ...(m.byRound.length
      ? [
          '',
          table(
            ['judged after round', 'accuracy [95% interval]', 'interval', 'n'],
            m.byRound.map((r) => [
              o.crossExaminer && r.round === lastRound ? `${r.round} (the final judgment, after the cross-examination)` : r.round,
              figureText(r.accuracy, 'percent'),
              methodLabel(r.accuracy),
              r.accuracy.n,
            ]),
          ),
          ...(o.crossExaminer && m.byRound.length > 1
            ? [
                '',
                `Round ${lastRound}'s verdict is the final judgment, which reads the cross-examination; the rounds before it were judged without one, so the change into round ${lastRound} includes the cross-examination's effect, not the round's alone.`,
              ]
            : []),
        ]
      : []),
  ].join('\n');
}

/** The report's line; "3 of 4 items answered in every run" (a consistency.json without `total`: "3 items …"). */
export function seedConsistencyMarkdown(c: SeedConsistency): string {
  const items = c.total === undefined ? `${c.items} items` : `${c.items} of ${c.total} items`;
  return `Consistency across ${c.runs} seeds (${items} answered in every run): pairwise agreement ${pct(c.pairwiseAgreement)}, unanimous ${pct(c.unanimous)}`;
}
