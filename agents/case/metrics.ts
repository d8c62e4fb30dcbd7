/**
 * CASE/baseline report metrics computed from a run's results.jsonl records and traces only:
 * accuracy with its 95% Wilson interval (eval/stats: every figure here is a proportion), confidence-stratified accuracy (high/low/tie/offline)
 * and, for a jury run, accuracy over every item that is not unanimous (the paper's Table 4 low confidence), tool
 * usage counts (calls per tool, calls per item, distinct passages returned: over the items whose traces were read, as
 * report.md's Tool usage section counts them), tokens, and
 * advocate evidence recall (gold in the correct hypothesis's evidence / in any advocate's evidence /
 * ever returned by a tool call) — plus goldInContext for RAG baselines.
 * Failed items (prediction null) count as wrong; they are listed separately.
 * Items whose question has no gold passage in the index (`goldInIndex: false`, eval/gold-in-index.ts)
 * count as misses of the gold figures, said under the table; a gold figure over none but such items
 * is not given ("— (no gold passage in this index)", rate null), never 0%.
 */
import { correctFlags, failedCount, isFailed } from '../../eval/metrics/failures.js';
import { figureText, methodLabel, proportionInterval } from '../../eval/stats/index.js';
import type { ResultRecord } from '../../eval/types.js';
import { table } from '../../eval/report/format.js';
import {
  cacheHitsText,
  promptCachedText,
  replyFlagsText,
  runCacheCounts,
  replacedAttemptsText,
  runReplacedAttempts,
  type ReplacedAttempts,
  runCutOffCount,
  runPromptCached,
  runPromptCacheUnsaid,
  runRefusedCount,
  runRetriedCount,
  runRetriesUnrecorded,
  retriesUnrecordedText,
  REPLY_FLAG_KEYS,
  runReplyFlags,
  runPicksBeyondK,
  runToolCallCount,
  runUnresolvedCitations,
  uncountedRequestsText,
  type RunReplyFlags,
  type UnderWay,
} from '../../eval/run-counts.js';
import { toolCallsOf, tracedItemsText } from '../../eval/report/sections/tool-usage.js';
import { compareConfidenceLabels } from '../../eval/plots/confidence-bins.js';
import { failedMissesNote, goldAbsentFor, goldCoverage, goldCoverageNote, NO_GOLD_IN_INDEX, type GoldCoverage } from '../../eval/gold-in-index.js';
import { meteredItemsText, perItemTokensText } from '../../eval/tokens-per-item.js';
import { LEARNED_SELECTOR_LABEL, NO_SIGNALS_NOTE } from './evidence-selection-label.js';
import { EVIDENCE_RECALL_LABELS } from '../common/evidence-recall.js';

export interface RateCi {
  n: number;
  rate: number | null;
  ci?: { lo: number; hi: number };
  /** The figure as every surface prints it, with its method ("50.0% [15.0, 85.0] 95% Wilson"). */
  text?: string;
}

export interface CaseMetrics {
  label?: string;
  /**
   * How the offline advocates' evidence was selected (traces' `evidenceSelection`): the learned
   * selector with or without the dense and phrase signals, or the query plan — which one follows from
   * the index and the flags, and the figures differ; items that differ are each named with their
   * count. Absent for runs whose traces do not record it (LLM runs).
   */
  evidenceSelection?: string;
  n: number;
  failed: number;
  accuracy: RateCi;
  byConfidence: Record<string, RateCi>;
  /**
   * A jury run's items that are not unanimous — 2–1 (`low`), 1–1–1 broken by evidence score or draw
   * (`tie`), no valid vote or failed — the paper's Table 4 "low confidence", so that with `high` it
   * splits every item of the accuracy (recipes/case-table4.json). Absent without jury labels.
   */
  notUnanimous?: RateCi;
  evidenceRecall: Record<'goldInCorrectEvidence' | 'goldInAnyEvidence' | 'goldEverReturned' | 'goldInContext', RateCi>;
  /** Per gold row, the failed items whose flag is a hit (their advocates found the gold before the item failed); absent when none. */
  failedGoldHits?: Partial<Record<'goldInCorrectEvidence' | 'goldInAnyEvidence' | 'goldEverReturned' | 'goldInContext', number>>;
  /** Items that record whether their gold passage is in the index, and how many have none there (absent for runs that do not record it). */
  goldInIndex?: GoldCoverage;
  /**
   * Tool calls per tool, and per item over `items`: the items whose traces were read (a trace of another attempt than
   * the item's line, or none, is not read: its calls are unknown), as report.md's Tool usage section divides;
   * `itemsWithoutTrace`: the recorded items left out for that (absent when none).
   */
  tools: { calls: Record<string, number>; callsPerQuestion: number; distinctPassagesPerQuestion: number; items: number; itemsWithoutTrace?: number };
  /**
   * `cutOff`: requests cut off when their item ended; `refused`: requests answered with an error after
   * their retries (eval/run-counts.ts): in no call count or total; `cacheHits` and the tokens an earlier
   * attempt of the run paid for them (`earlierAttempts`): not in the total; each absent when none.
   */
  tokens: {
    total: number;
    /**
     * `total` over `items`: the items whose results.jsonl lines record tokens (failed ones included), as report.md's
     * Tokens table and report.json `tokens.perItem` (eval/tokens-per-item.ts); all the items for a run none of whose
     * lines records them (the traces' stages then). `itemsWithoutTokens`: the lines left out (an older lexcase's); absent when none.
     */
    perItem: number;
    items: number;
    itemsWithoutTokens?: number;
    /** `perItem`, under its older name. */
    perQuestion: number;
    /**
     * Per stage (hypotheses, advocates, jury) as the traces count them; `other`: what the rest of the
     * answered items spent (the query-rewrite tool's calls); `failedUnstaged` (FAILED_UNSTAGED_LABEL): what failed
     * items spent in no stage their trace counts — the step that failed (its calls before the error) and
     * its rewrites. Each absent when 0; the parts add up to the total.
     */
    byStage: Record<string, number>;
    cutOff?: number;
    refused?: number;
    /** Failed attempts sent again (429, 5xx, a timeout, …): in no call count or total. */
    retried?: number;
    /** Lines that sent requests and record no `tokens.retried` (written by an older lexcase): their retries are in no count. */
    retriesUnrecorded?: number;
    /** Items under way at an interrupt and the requests they had sent (config.json `interrupts`): in no line; absent when none. */
    interrupted?: UnderWay;
    cacheHits?: number;
    earlierAttempts?: number;
    /** Failed attempts a retry replaced (results.jsonl `replacedAttempts`): their items, attempts, tokens and LLM calls, not in `total`; absent when none. */
    replacedAttempts?: ReplacedAttempts;
    /** LLM calls, those whose endpoint reported no usage and replies cut short (eval/run-counts.ts runReplyFlags); absent when neither. */
    replies?: RunReplyFlags;
    /** The input tokens and, of them, those the endpoint said its own prompt cache served (results.jsonl `tokens.promptCached`); absent when no reply said it. */
    promptCache?: { input: number; cached: number; unsaid?: number };
  };
  abstentions: number;
  /**
   * Evidence the advocates cited as no passage handle they were shown ("P3, P5", "P99"; agents/common/passage-handles.ts
   * `cite`), dropped from their evidence and so from every gold-in-evidence figure, and the items with any; absent for
   * runs that do not record it (before 2026-12-01, when "(P3)", "P3." and "Passage 3" were among them, uncounted).
   */
  unresolvedCitations?: { citations: number; items: number };
  /**
   * Passages the advocates picked after they already had their k (results' `metrics.picksBeyondK`; each trace's
   * `advocates[].rejected`, reason "beyond k"), dropped from their evidence, and the items with any; absent for runs
   * that do not record it (offline; before 2026-12-01, when they were dropped unlisted and uncounted).
   */
  picksBeyondK?: { picks: number; items: number; uncounted?: number };
  /** Tool calls the advocates' replies made twice (same tool and arguments, results' `metrics.repeatedToolCalls`), each run once, and the items with any; absent for runs that do not record it. */
  repeatedToolCalls?: { calls: number; items: number };
  /** Tool calls naming a tool the advocates were not offered ("Search_BM25"; results' `metrics.toolCallsNotOffered`), refused, and the items with any; absent for runs that do not record it. */
  toolCallsNotOffered?: { calls: number; items: number };
  /** Exploratory hypotheses equally close to several options, so credited to none (map-hypotheses.ts), of `of`; absent without exploratory hypotheses. */
  tiedHypotheses?: { tied: number; of: number };
  /**
   * Exploratory hypotheses close to no option (sharing no word with any: letter null, no tie), so credited to none, of
   * `of`; absent when none (before 2026-12-05 uncounted: "1 of 3 credited to none" read as two hypotheses reaching a letter).
   */
  unmappedHypotheses?: { unmapped: number; of: number };
}

/** A share of 0/1 values: a proportion, Wilson interval (the `seed` of the callers is for no interval here). */
function rate(values: number[], _seed?: number): RateCi {
  if (values.length === 0) return { n: 0, rate: null };
  const ci = proportionInterval(
    values.reduce((a, b) => a + b, 0),
    values.length,
  );
  return { n: values.length, rate: ci.estimate, ci: { lo: ci.lo!, hi: ci.hi! }, text: `${figureText(ci, 'percent')} ${methodLabel(ci)}` };
}

type AnyTrace = Record<string, unknown> & {
  mode?: string;
  advocates?: { toolCalls?: { tool: string; ids: string[] }[] }[];
  tokens?: Record<string, number>;
  jurors?: { abstained?: boolean }[];
  hypotheses?: { key?: string; tiedLetters?: string[] }[];
};

/** `underWay`: the requests of items under way at the run's interrupts (config.json `interrupts`, runInterrupts): in no record, said on the Tokens line. */
export function caseMetrics(records: ResultRecord[], traces: Map<string, Record<string, unknown>>, seed = 13, underWay?: UnderWay): CaseMetrics {
  const acc = correctFlags(records);
  const byConf: Record<string, number[]> = {};
  records.forEach((r, i) => {
    if (r.confidence) (byConf[r.confidence] ??= []).push(acc[i]);
  });
  const flag = (key: string) =>
    records.flatMap((r) => {
      const v = r.metrics?.[key];
      return typeof v === 'boolean' ? [v ? 1 : 0] : [];
    });
  // a gold figure over items none of which has its gold passage in the index: not given, never 0%
  const goldRate = (key: string): RateCi => {
    const values = flag(key);
    return goldAbsentFor(records, key) ? { n: values.length, rate: null, text: NO_GOLD_IN_INDEX } : rate(values, seed);
  };
  const coverage = goldCoverage(records);
  const calls: Record<string, number> = {};
  let callTotal = 0;
  let distinct = 0;
  const byStage: Record<string, number> = {};
  let abstentions = 0;
  let exploratory = 0;
  let tiedHyps = 0;
  let unmappedHyps = 0;
  let label: string | undefined;
  const selections = new Map<string, number>();
  let traced = 0;
  // the tokens are the runner's count of the items whose lines record it: their stages only, so the parts add up to it
  const metered = records.filter((r) => r.tokens);
  for (const r of records) {
    const t = traces.get(r.id) as AnyTrace | undefined;
    if (!t) continue;
    traced++;
    if (typeof t.mode === 'string') label ??= t.mode;
    if (typeof t.evidenceSelection === 'string') selections.set(t.evidenceSelection, (selections.get(t.evidenceSelection) ?? 0) + 1);
    // the runner's record of the item's tool calls, as the report's Tool usage section counts them
    // (failed items' advocates included); the advocates' own lists for traces without it
    const seen = new Set<string>();
    for (const c of toolCallsOf(t)) {
      calls[c.tool] = (calls[c.tool] ?? 0) + 1;
      callTotal++;
      for (const id of c.ids ?? []) seen.add(id);
    }
    distinct += seen.size;
    if (!metered.length || r.tokens)
      for (const [k, v] of Object.entries(t.tokens ?? {})) if (k !== 'total' && typeof v === 'number') byStage[k] = (byStage[k] ?? 0) + v;
    // an item that failed before its jury keeps the panel size (a number) under `jurors`
    abstentions += (Array.isArray(t.jurors) ? t.jurors : []).filter((j) => j.abstained).length;
    for (const h of Array.isArray(t.hypotheses) ? t.hypotheses : [])
      if (typeof h.key === 'string' && h.key.startsWith('H')) {
        exploratory++;
        if (h.tiedLetters?.length) tiedHyps++;
        else if ('letter' in h && h.letter === null) unmappedHyps++;
      }
  }
  // What the run spent: the runner's count per item (the LLM factory's meter: cache hits and
  // calls without reported usage add 0); the traces' stages only for records without it (older runs).
  // The stages count the advocates', hypotheses' and jurors' own replies; what the rest spent (the
  // query-rewrite tool's calls) is `other`, so the parts add up to the total.
  // A failed item's trace counts only the steps that finished: what the failing step spent before its
  // error is in the runner's count and in no stage — its own part, not `other` (before: "other 12811"
  // read as query rewrites in a run that made none, and the advocates' figure lacked those tokens).
  const staged = Object.values(byStage).reduce((a, b) => a + b, 0);
  const tokenTotal = metered.length ? metered.reduce((s, r) => s + r.tokens!.total, 0) : staged;
  let failedUnstaged = 0;
  for (const r of metered) {
    const stages = (traces.get(r.id) as AnyTrace | undefined)?.tokens;
    if (!isFailed(r) || !stages || typeof stages !== 'object') continue;
    const counted = Object.entries(stages).reduce((s, [k, v]) => s + (k !== 'total' && typeof v === 'number' ? v : 0), 0);
    failedUnstaged += Math.max(0, r.tokens!.total - counted);
  }
  failedUnstaged = Math.min(failedUnstaged, Math.max(0, tokenTotal - staged));
  if (failedUnstaged) byStage.failedUnstaged = failedUnstaged;
  if (metered.length && tokenTotal > staged + failedUnstaged) byStage.other = tokenTotal - staged - failedUnstaged;
  const n = records.length;
  const tokenItems = metered.length || n;
  const cutOff = runCutOffCount(records);
  const refused = runRefusedCount(records);
  const retried = runRetriedCount(records);
  const retriesUnrecorded = runRetriesUnrecorded(records);
  const cache = runCacheCounts(records);
  const replaced = runReplacedAttempts(records);
  const promptCached = runPromptCached(records);
  const promptCacheUnsaid = runPromptCacheUnsaid(records);
  const replies = runReplyFlags(records);
  // a jury run: its votes made a high or low confidence, or its traces name a panel — a run whose every item was a tie
  // (or had no answer) is one too (before 2026-12-05 its "not unanimous" row, the paper's low confidence, was left out)
  const jury =
    records.some((r) => r.confidence === 'high' || r.confidence === 'low') ||
    [...traces.values()].some((t) => Array.isArray((t as { panel?: unknown }).panel) && (t as { panel: unknown[] }).panel.length > 0);
  const evidenceSelection =
    selections.size > 1 ? [...selections].map(([s, c]) => `${s} (${c} items)`).join('; ') : selections.size === 1 ? [...selections.keys()][0] : undefined;
  return {
    ...(label ? { label } : {}),
    ...(evidenceSelection ? { evidenceSelection } : {}),
    n,
    failed: failedCount(records),
    accuracy: rate(acc, seed),
    // low → high, as report.md's "Accuracy by confidence" and the reliability plot (CONFIDENCE_LABEL_ORDER)
    byConfidence: Object.fromEntries(
      Object.entries(byConf)
        .sort(([a], [b]) => compareConfidenceLabels(a, b))
        .map(([k, v]) => [k, rate(v, seed)]),
    ),
    ...(jury
      ? {
          notUnanimous: rate(
            acc.filter((_, i) => records[i].confidence !== 'high'),
            seed,
          ),
        }
      : {}),
    evidenceRecall: {
      goldInCorrectEvidence: goldRate('goldInCorrectEvidence'),
      goldInAnyEvidence: goldRate('goldInAnyEvidence'),
      goldEverReturned: goldRate('goldEverReturned'),
      goldInContext: goldRate('goldInContext'),
    },
    ...failedGoldHitsOf(records),
    ...(coverage ? { goldInIndex: coverage } : {}),
    ...(records.some((r) => typeof r.metrics?.unresolvedCitations === 'number') ? { unresolvedCitations: runUnresolvedCitations(records) } : {}),
    ...(records.some((r) => typeof r.metrics?.picksBeyondK === 'number') ? { picksBeyondK: runPicksBeyondK(records) } : {}),
    ...(records.some((r) => typeof r.metrics?.repeatedToolCalls === 'number') ? { repeatedToolCalls: runToolCallCount(records, 'repeatedToolCalls') } : {}),
    ...(records.some((r) => typeof r.metrics?.toolCallsNotOffered === 'number')
      ? { toolCallsNotOffered: runToolCallCount(records, 'toolCallsNotOffered') }
      : {}),
    // over the items whose traces were read, as the Tool usage section (before: over every record, so an item whose
    // trace was not read counted as one with no calls: "3.0 per question" beside the section's "4.00" calls / item)
    tools: {
      calls,
      callsPerQuestion: traced ? callTotal / traced : 0,
      distinctPassagesPerQuestion: traced ? distinct / traced : 0,
      items: traced,
      ...(traced < n ? { itemsWithoutTrace: n - traced } : {}),
    },
    tokens: {
      total: tokenTotal,
      perItem: tokenItems ? tokenTotal / tokenItems : 0,
      items: tokenItems,
      ...(metered.length && metered.length < n ? { itemsWithoutTokens: n - metered.length } : {}),
      perQuestion: tokenItems ? tokenTotal / tokenItems : 0,
      byStage,
      ...(cutOff ? { cutOff } : {}),
      ...(refused ? { refused } : {}),
      ...(retried ? { retried } : {}),
      ...(retriesUnrecorded ? { retriesUnrecorded } : {}),
      ...(underWay?.requests ? { interrupted: underWay } : {}),
      ...(cache.hits ? { cacheHits: cache.hits } : {}),
      ...(cache.earlierAttempts ? { earlierAttempts: cache.earlierAttempts } : {}),
      ...(replaced.attempts ? { replacedAttempts: replaced } : {}),
      ...(REPLY_FLAG_KEYS.some((k) => replies[k]) ? { replies } : {}),
      ...(promptCached !== undefined
        ? {
            promptCache: {
              input: metered.reduce((s, r) => s + r.tokens!.input, 0),
              cached: promptCached,
              ...(promptCacheUnsaid ? { unsaid: promptCacheUnsaid } : {}),
            },
          }
        : {}),
    },
    abstentions,
    ...(exploratory ? { tiedHypotheses: { tied: tiedHyps, of: exploratory } } : {}),
    ...(unmappedHyps ? { unmappedHypotheses: { unmapped: unmappedHyps, of: exploratory } } : {}),
  };
}

const GOLD_ROWS = ['goldInCorrectEvidence', 'goldInAnyEvidence', 'goldEverReturned', 'goldInContext'] as const;

/** The failed items each gold row counts as a hit (what their advocates found before the item failed). */
function failedGoldHitsOf(records: readonly ResultRecord[]): Pick<CaseMetrics, 'failedGoldHits'> {
  const failed = records.filter(isFailed);
  const hits = Object.fromEntries(GOLD_ROWS.map((k) => [k, failed.filter((r) => r.metrics?.[k] === true).length] as const).filter(([, n]) => n > 0));
  return Object.keys(hits).length ? { failedGoldHits: hits } : {};
}

/**
 * "Gold rows: 2 failed items count as misses, as accuracy counts them as wrong." — or, where a failed item's advocates had
 * found the gold before it failed, the rows that count it as a hit (before 2026-12-05 the line said "misses" regardless).
 */
function failedGoldRowsLine(m: CaseMetrics): string {
  const hits = Object.entries(m.failedGoldHits ?? {}).filter(([k]) => m.evidenceRecall[k as keyof CaseMetrics['evidenceRecall']].n);
  if (!hits.length) return `Gold rows: ${failedMissesNote(m.failed)}, as accuracy counts them as wrong.`;
  const label = (k: string) => (k === 'goldInContext' ? 'gold in the prompt context' : EVIDENCE_RECALL_LABELS[k as keyof typeof EVIDENCE_RECALL_LABELS]);
  return `Gold rows: ${m.failed} failed item${m.failed === 1 ? '' : 's'} count${m.failed === 1 ? 's' : ''} with what ${m.failed === 1 ? 'its' : 'their'} advocates found before ${m.failed === 1 ? 'it' : 'they'} failed, while accuracy counts ${m.failed === 1 ? 'it' : 'them'} as wrong: ${hits.map(([k, n]) => `"${label(k)}" counts ${n} of them as a hit`).join(', ')}.`;
}

/** How the Tokens line names `byStage.failedUnstaged`: failed items' tokens in no stage of their traces. */
export const FAILED_UNSTAGED_LABEL = 'failed items, in no stage';

const pct = (r: RateCi) => (r.rate === null ? (r.text ?? '–') : `${r.text ?? `${(100 * r.rate).toFixed(1)}%`} (n=${r.n})`);

/** The line naming how the evidence was selected, with why a learned selection read no dense and phrase signals. */
export function evidenceSelectionLine(selection: string): string {
  return `Evidence: ${selection}${selection === LEARNED_SELECTOR_LABEL ? ` — ${NO_SIGNALS_NOTE}` : ''}.`;
}

/** A confidence stratum's row: "accuracy, high confidence"; the items with no answer (confidence "none": every juror abstained or failed, no option scored) are named as such. */
const stratumLabel = (k: string) => (k === 'none' ? 'accuracy, items with no answer (confidence "none"; counted wrong)' : `accuracy, ${k} confidence`);

/** The metrics as markdown; `evidence: false` leaves out the evidence-selection line (the demo says it in its own text). */
export function caseMetricsMarkdown(m: CaseMetrics, o: { evidence?: boolean } = {}): string {
  const lines = [`### Metrics${m.label ? ` — ${m.label}` : ''}`, ''];
  const rows: (string | number)[][] = [['accuracy', pct(m.accuracy)]];
  for (const [k, v] of Object.entries(m.byConfidence)) rows.push([stratumLabel(k), pct(v)]);
  if (m.notUnanimous) rows.push(["accuracy, not unanimous (low + tie + failed: the paper's low confidence)", pct(m.notUnanimous)]);
  const er = m.evidenceRecall;
  if (er.goldInCorrectEvidence.n) rows.push([EVIDENCE_RECALL_LABELS.goldInCorrectEvidence, pct(er.goldInCorrectEvidence)]);
  if (er.goldInAnyEvidence.n) rows.push([EVIDENCE_RECALL_LABELS.goldInAnyEvidence, pct(er.goldInAnyEvidence)]);
  if (er.goldEverReturned.n) rows.push([EVIDENCE_RECALL_LABELS.goldEverReturned, pct(er.goldEverReturned)]);
  if (er.goldInContext.n) rows.push(['gold in the prompt context (RAG)', pct(er.goldInContext)]);
  rows.push(['failed items', m.failed]);
  if (m.abstentions) rows.push(['juror abstentions', m.abstentions]);
  if (m.unresolvedCitations?.citations)
    rows.push([
      'evidence cited as no passage handle shown (dropped from the evidence)',
      `${m.unresolvedCitations.citations} in ${m.unresolvedCitations.items} ${m.unresolvedCitations.items === 1 ? 'item' : 'items'}`,
    ]);
  if (m.picksBeyondK?.picks)
    rows.push([
      'advocate picks beyond k (dropped from the evidence)',
      `${m.picksBeyondK.picks} in ${m.picksBeyondK.items} ${m.picksBeyondK.items === 1 ? 'item' : 'items'}${m.picksBeyondK.uncounted ? ` (${m.picksBeyondK.uncounted} ${m.picksBeyondK.uncounted === 1 ? 'item' : 'items'} from before the count not counted)` : ''}`,
    ]);
  const inItems = (c: { calls: number; items: number }) => `${c.calls} in ${c.items} ${c.items === 1 ? 'item' : 'items'}`;
  if (m.repeatedToolCalls?.calls) rows.push(['tool calls repeated in one reply (same tool and arguments; run once)', inItems(m.repeatedToolCalls)]);
  if (m.toolCallsNotOffered?.calls) rows.push(['tool calls naming no tool offered (refused, never ran)', inItems(m.toolCallsNotOffered)]);
  if (m.tiedHypotheses)
    rows.push(['exploratory hypotheses equally close to several options (credited to none)', `${m.tiedHypotheses.tied} of ${m.tiedHypotheses.of}`]);
  if (m.unmappedHypotheses)
    rows.push([
      'exploratory hypotheses close to no option (sharing no word with any; credited to none)',
      `${m.unmappedHypotheses.unmapped} of ${m.unmappedHypotheses.of}`,
    ]);
  lines.push(table(['metric', 'value [95% interval] method'], rows, ['l', 'l']));
  lines.push('');
  if (m.evidenceSelection && o.evidence !== false) lines.push(evidenceSelectionLine(m.evidenceSelection), '');
  const goldRows = Object.values(er).some((r) => r.n);
  const gold = goldRows ? goldCoverageNote(m.goldInIndex) : undefined;
  if (gold) lines.push(`**Warning:** ${gold}.`, '');
  // a failed item's gold flags are what its advocates found before it failed (nothing, when it failed first)
  if (goldRows && m.failed) lines.push(failedGoldRowsLine(m), '');
  const tools = Object.entries(m.tools.calls).sort((a, b) => b[1] - a[1]);
  if (tools.length) {
    lines.push(
      `Tool calls: ${tools.map(([t, c]) => `${t} ${c}`).join(', ')} (${m.tools.callsPerQuestion.toFixed(1)} per item, ${m.tools.distinctPassagesPerQuestion.toFixed(1)} distinct passages returned per item${
        m.tools.itemsWithoutTrace ? `; ${tracedItemsText(m.tools.items, m.tools.items + m.tools.itemsWithoutTrace)}` : ''
      }).`,
    );
  }
  if (m.tokens.total > 0 || m.tokens.cutOff || m.tokens.refused || m.tokens.cacheHits || m.tokens.replies || m.tokens.interrupted || m.tokens.replacedAttempts)
    lines.push(
      `Tokens: ${m.tokens.total.toLocaleString('en-US')} total, ${perItemTokensText(m.tokens.perItem)} per item${
        m.tokens.itemsWithoutTokens ? ` ${meteredItemsText({ items: m.tokens.items, of: m.tokens.items + m.tokens.itemsWithoutTokens })}` : ''
      }${
        // a run the cache answered spent nothing: the traces' stage figures are not this run's
        m.tokens.total > 0 && Object.keys(m.tokens.byStage).length
          ? ` (${Object.entries(m.tokens.byStage)
              .map(([k, v]) => `${k === 'failedUnstaged' ? FAILED_UNSTAGED_LABEL : k} ${v.toLocaleString('en-US')}`)
              .join(', ')})`
          : ''
      }${m.tokens.replacedAttempts ? `; ${replacedAttemptsText(m.tokens.replacedAttempts)}` : ''}${m.tokens.promptCache ? `; input ${m.tokens.promptCache.input.toLocaleString('en-US')} (${promptCachedText(m.tokens.promptCache.cached, m.tokens.promptCache.unsaid)})` : ''}${m.tokens.cacheHits ? `; ${cacheHitsText(m.tokens.cacheHits, m.tokens.earlierAttempts)}` : ''}${uncountedRequestsText(m.tokens.cutOff ?? 0, m.tokens.refused ?? 0, m.tokens.retried ?? 0, m.tokens.interrupted)}${m.tokens.retriesUnrecorded ? `; ${retriesUnrecordedText(m.tokens.retriesUnrecorded)}` : ''}${m.tokens.replies ? replyFlagsText(m.tokens.replies) : ''}.`,
    );
  return lines.join('\n');
}
