/**
 * The top k of a ranking whatever depth is searched: a retriever keeps its k best hits, tied scores
 * by its internal doc order, while the run file written from them is ranked by trec_eval (scores
 * rounded as the run file writes them — 6 decimals, a hybrid's 10 significant digits —, ties by docid descending: `trecCompare` below). Cutting at k
 * first and ordering after made an @k figure depend on the depth searched (--hits / -k) when hits
 * tied at the cut: of six tied passages the retriever kept five by doc index, and trec_eval on a
 * deeper run ranked another five first. `searchTopK` searches past k while the hit after the k-th
 * ties with it (in the run file's rounding), orders the hits as trec_eval does and only then cuts at
 * k — so the top k of any depth is the first k of a deeper run. Every place that writes, evaluates
 * or shows a cut ranking searches through it: batch search and its workers, `eval retrieval
 * --dataset`, the explorer, reproduce runs, the fusion sweep, interactive search, the query service
 * and the filtered search (./filtered-search.ts: /v1, MCP, the LangChain filter), so a rank a search
 * view shows is the rank the evaluation counts. A hybrid is no exception: it fuses each component's
 * top `depth` (Retriever.rankingDepth) into one ranking, the same for every k, so at a k at or past
 * its depth the search past a tie reads further down that same fused ranking (to its end at most) and
 * its top k is the first k of a deeper run too.
 *
 * With `ties: 'anserini'` the order is Anserini's (raw score, then docid ascending:
 * eval/trec/anserini-ties.ts), tied on the raw score, as Anserini cuts its Lucene top k.
 * Here, below eval/, so that retrieval/ reaches it; eval/trec re-exports its run-file parts.
 */
import { errors } from '../core/errors.js';
import type { Hit, Retriever, SearchOptions } from './types.js';

/** `--ties`: none (trec_eval's order) or Anserini's (eval/trec/anserini-ties.ts applies its scores). */
export const TIE_MODES = ['none', 'anserini'] as const;
export type TieMode = (typeof TIE_MODES)[number];

/**
 * How a run file writes a score: 6 decimals, or, with `digits` (Retriever.scoreDigits: the hybrid's
 * fused scores), as many decimals as keep `digits` significant digits where that is more than 6.
 * RRF scores are small (a passage ranked 1,000th by one list adds w/(k + 1000) ≈ 0.0005) and,
 * deeper than a few hundred ranks, two fused scores differ by less than 1e-6: 6 decimals tied 14 %
 * of a 1,000-hit default hybrid run's lines (Bar Exam val), which trec_eval then ordered by docid, not
 * by the fusion. 10 significant digits separate every fused score that differs by more than the
 * last bits of its float sum. bm25, qld and dense keep 6 decimals (their files unchanged).
 */
export function scoreText(score: number, digits?: number): string {
  if (!Number.isFinite(score)) return String(score);
  if (digits === undefined || score === 0) return score.toFixed(6);
  const decimals = Math.min(100, Math.max(6, digits - 1 - Math.floor(Math.log10(Math.abs(score)))));
  return score.toFixed(decimals);
}

/**
 * The score exactly as TrecRunWriter writes it (scoreText: 6 decimals, or `digits` significant
 * digits), so an evaluation of in-memory hits gives the same numbers as trec_eval (or `lexcase eval
 * run`) on the written file: rounding can create ties, and ties are broken by docid.
 */
export const writtenScore = (score: number, digits?: number): number => (Number.isFinite(score) ? Number(scoreText(score, digits)) : score);

const bytes = (s: string) => Buffer.from(s, 'utf8');

/**
 * trec_eval's order of two run documents (eval/trec/order.ts): score descending, ties by docid in
 * DESCENDING byte (UTF-8) order.
 */
export function trecCompare(a: { docid: string; score: number }, b: { docid: string; score: number }): number {
  if (a.score > b.score) return -1;
  if (a.score < b.score) return 1;
  if (a.docid === b.docid) return 0;
  return Buffer.compare(bytes(b.docid), bytes(a.docid));
}

/** A hit with its score as the order compares it (`key`), worked out once per hit, not per comparison. */
interface Keyed {
  hit: Hit;
  docid: string;
  score: number;
}

interface CutOrder {
  /** The score as the order compares it. */
  key: (score: number) => number;
  /** Two hits by their keyed scores. */
  compare: (a: Keyed, b: Keyed) => number;
}

const trec = (digits?: number): CutOrder => ({ key: (s) => writtenScore(s, digits), compare: trecCompare });

const ANSERINI: CutOrder = {
  key: (s) => s,
  compare: (a, b) => (b.score !== a.score ? (b.score > a.score ? 1 : -1) : a.docid < b.docid ? -1 : a.docid > b.docid ? 1 : 0),
};

const orderOf = (ties: TieMode | undefined, digits?: number): CutOrder => (ties === 'anserini' ? ANSERINI : trec(digits));

/**
 * Hits in the cut's order (trec_eval's, or Anserini's with ties 'anserini'), ranks renumbered;
 * `digits`: the retriever's scoreDigits (the scores as its run file writes them, scoreText).
 */
export function rankedHits(hits: readonly Hit[], ties?: TieMode, digits?: number): Hit[] {
  const { key, compare } = orderOf(ties, digits);
  return hits
    .map((hit): Keyed => ({ hit, docid: hit.id, score: key(hit.score) }))
    .sort(compare)
    .map(({ hit: h }, i) => (h.rank === i + 1 ? h : { ...h, rank: i + 1 }));
}

/**
 * A ranking lists each passage once. A retriever of your own that returns one passage twice (a
 * chunk retriever answering with each chunk's document id) would count it twice: Recall@k past 1,
 * nDCG past 1, its fused score added twice — and `lexcase eval run`, like trec_eval, refuses the run
 * file written from it. So it stops here with one INVALID_INPUT error naming the passage, its two
 * ranks and `who` (the retriever and query, where the caller knows them).
 */
export function assertDistinctHits(hits: readonly Hit[], who?: string): void {
  const seen = new Map<string, number>();
  for (let i = 0; i < hits.length; i++) {
    const first = seen.get(hits[i].id);
    if (first !== undefined)
      throw errors.invalidInput(
        'retriever hits',
        `${who ? `${who}: ` : ''}passage "${hits[i].id}" is returned twice in one ranking (hits ${first + 1} and ${i + 1}, scores ${hits[first].score} and ${hits[i].score}); a ranking lists each passage once (trec_eval refuses a run with a duplicate document) — a retriever over chunks must merge a passage's hits into one`,
      );
    seen.set(hits[i].id, i);
  }
}

/** How searchTopK orders and cuts, and whom a duplicate-hit error names. */
export interface TopKOptions {
  /** The order: trec_eval's (none, the default) or Anserini's. */
  ties?: TieMode;
  /** The retriever's scoreDigits: its scores as its run file writes them (scoreText). */
  digits?: number;
  /** The retriever and query, named in the error on a passage returned twice (assertDistinctHits). */
  who?: string;
}

/**
 * The k best hits of `search` (called with a depth, it returns that many best hits or all there
 * are), the same k whatever depth a caller might have asked for: searched past k while hit k+1 ties
 * with hit k, ordered (rankedHits), then cut at k. A passage returned twice stops it
 * (assertDistinctHits). A retriever's own run as printed: printedRun below, which passes its digits.
 */
export async function searchTopK(search: (depth: number) => Promise<Hit[]>, k: number, o: TopKOptions = {}): Promise<Hit[]> {
  return (await searchTopKCut(search, k, o)).hits;
}

/**
 * searchTopK's k hits, and `cut`: whether the method ranks more than them (the search, at least k + 1
 * deep, found more than k), so a short list made from them was cut at k rather than all there is.
 */
export async function searchTopKCut(search: (depth: number) => Promise<Hit[]>, k: number, o: TopKOptions = {}): Promise<{ hits: Hit[]; cut: boolean }> {
  if (k < 1) return { hits: [], cut: false };
  const { ties, digits, who } = o;
  const { key } = orderOf(ties, digits);
  for (let depth = k + 1; ; depth *= 2) {
    const found = await search(depth);
    assertDistinctHits(found, who);
    const ranked = rankedHits(found, ties, digits);
    // Fewer than asked: every hit there is. Else every unsearched hit scores at most the last one.
    if (ranked.length < depth || key(ranked[ranked.length - 1].score) !== key(ranked[k - 1].score)) return { hits: ranked.slice(0, k), cut: ranked.length > k };
  }
}

/**
 * How a list fused from retriever runs is ranked: each is the run as printed (`searchTopK` at the
 * list's depth: trec_eval's order, a tie across the depth cut searched past as at any cut), not the
 * retriever's internal tie order. Recorded as `componentRanking` in the config of what fuses such
 * lists (the hybrid retriever, CASE offline runs), so a run dir an older lexcase fused otherwise is
 * refused on resume.
 */
export const PRINTED_RUN_RANKING = 'trec_eval, depth past ties';

/**
 * How an agent's searches cut their top k (the search tools, a RAG baseline's context, the IR
 * solver's pool): `printedRun`, the top k `lexcase search -k` prints (trec_eval's order, a tie at
 * the cut searched past). Recorded as `searchRanking` in the config of the agent runs that search
 * (CASE, its baselines, MAD, ACAL and its RAG baseline); an older lexcase kept the retriever's index
 * order at a tie, so resuming a run dir it started warns (eval/resume-unrecorded.ts).
 */
export const PRINTED_SEARCH_RANKING = 'trec_eval, top k past ties';

/**
 * The config fragment an agent run that searches records beside `searchRanking`: the significant
 * digits each of its retrievers' scores are read with where that is not 6 decimals
 * (Retriever.scoreDigits: the hybrid's 10), as `searchScoreDigits` ({ hybrid: 10 }); nothing where
 * none keeps more. Each search's top-k cut (printedRun) orders the scores so rounded; an older lexcase
 * cut a hybrid's searches at 6 decimals, where fused scores tie (then ordered by id), so resuming a
 * run dir it started warns (eval/resume-unrecorded.ts). `retrievers`: those the run's searches use.
 */
export function searchScoreDigits(retrievers: Partial<Record<string, Pick<Retriever, 'scoreDigits'>>>): { searchScoreDigits?: Record<string, number> } {
  const digits = Object.entries(retrievers)
    .filter(([, r]) => r?.scoreDigits !== undefined)
    .map(([m, r]) => [m, r!.scoreDigits!] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return digits.length ? { searchScoreDigits: Object.fromEntries(digits) } : {};
}

/** printedRun's options: the search's own (withText, approx), and what the search is for (`of`). */
export type PrintedRunOptions = Omit<SearchOptions, 'k'> & {
  /** Named after the retriever in a duplicate-hit error: `question "mbe_1"`, `topic "301"`. */
  of?: string;
};

/**
 * `r`'s top `depth` hits for `query` as its printed run ranks them (searchTopK in trec_eval's order,
 * its scores as its run file writes them: r.scoreDigits), what `lexcase search -k` prints; a
 * duplicate-hit error names the retriever (and `of`).
 */
export function printedRun(
  r: Pick<Retriever, 'search' | 'scoreDigits'> & { method?: string },
  query: string,
  depth: number,
  opts: PrintedRunOptions = {},
): Promise<Hit[]> {
  const { of, ...search } = opts;
  const who = [r.method === undefined ? undefined : `retriever ${r.method}`, of].filter((x) => x !== undefined).join(', ') || undefined;
  return searchTopK((d) => r.search(query, { ...search, k: d }), depth, { digits: r.scoreDigits, who });
}
