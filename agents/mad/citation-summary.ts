/**
 * Per-item citation figures, from the citations that back the system's answer (MAD: the winning
 * debater's final brief; baselines: the answer's claims). Written into results.jsonl `metrics` so
 * `lexcase compare` and the run metrics can use them.
 */
import type { CheckedCitation } from './types.js';

export interface ItemCitationMetrics {
  [k: string]: number | boolean | null;
  citations: number;
  /** Share of cited ids that exist in the index (null with no citations). */
  citationsExist: number | null;
  /** Share of citations the lexical support check accepts. */
  citationsSupportive: number | null;
  /** Share the judge was shown the text of and did not list as unsupported (MAD only; null otherwise). */
  citationsJudgeSupportive: number | null;
  /** Share of cited ids the author had been shown (pool or own request). */
  citationsSeen: number | null;
  /** A gold passage is among the cited ids (null when the question has no gold ids). */
  goldCited: boolean | null;
  /** A gold passage is in the evidence shown to the system (null when no gold ids). */
  goldInPool: boolean | null;
}

const share = (n: number, d: number): number | null => (d === 0 ? null : n / d);

/**
 * `judge` (MAD): the ids the judge listed as unsupported, and the ids of every passage whose text it
 * was shown; a citation of a passage it was not shown (a bare handle, an id not in the index) is
 * never counted as judge-supported — the judge could not check it.
 */
export function itemCitationMetrics(
  cites: CheckedCitation[],
  gold: string[],
  evidenceIds: string[],
  judge?: { unsupported: readonly string[]; shown: readonly string[] },
): ItemCitationMetrics {
  const n = cites.length;
  const unsupported = new Set(judge?.unsupported ?? []);
  const shown = new Set(judge?.shown ?? []);
  return {
    citations: n,
    citationsExist: share(cites.filter((c) => c.exists).length, n),
    citationsSupportive: share(cites.filter((c) => c.supportive).length, n),
    citationsJudgeSupportive: judge ? share(cites.filter((c) => !c.unresolved && shown.has(c.id) && !unsupported.has(c.id)).length, n) : null,
    citationsSeen: share(cites.filter((c) => c.seen).length, n),
    goldCited: gold.length ? cites.some((c) => !c.unresolved && gold.includes(c.id)) : null,
    goldInPool: gold.length ? evidenceIds.some((id) => gold.includes(id)) : null,
  };
}

/**
 * The figures of an item with no answer (a failed item): its answer has no citations to measure,
 * so each answer-citation figure is null (not applicable — left out of every mean, never 0); the
 * evidence pool's gold coverage stays, the pool existing without a verdict.
 */
export function unansweredCitationMetrics(m: ItemCitationMetrics): Record<string, number | boolean | null> {
  return { ...m, citations: null, citationsExist: null, citationsSupportive: null, citationsJudgeSupportive: null, citationsSeen: null, goldCited: null };
}
