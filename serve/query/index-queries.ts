/**
 * The four queries on one opened index, shared by every surface that answers them: the query
 * service (MCP tools, the /v1 HTTP API, the library) and the explorer's internal endpoints
 * (web/server/search-api.ts, which adds highlighting). Errors are LexcaseErrors whose code says
 * what went wrong (METHOD_UNAVAILABLE, INVALID_INPUT, NOT_FOUND, LLM_NOT_CONFIGURED) and whose
 * message names no server path.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { findEvidence, type EvidenceResult } from '../../agents/case/find-evidence.js';
import { errors, LexcaseError } from '../../core/errors.js';
import { queryCutNote } from '../../retrieval/dense-query-cut.js';
import { querySourceNote } from '../../retrieval/dense-query-source.js';
import { noFeedbackOf } from '../../retrieval/rm3-no-feedback.js';
import { searchFiltered } from '../../retrieval/filtered-search.js';
import type { OpenedIndex } from '../../retrieval/open-index.js';
import type { Rm3Term } from '../../retrieval/rm3.js';
import type { Explanation, Hit } from '../../retrieval/types.js';
import { printedRun } from '../../retrieval/top-k.js';

export interface PassageHit extends Hit {
  title?: string;
  source?: string;
  text: string;
}

export function checkMethod(ix: OpenedIndex, method: string): void {
  if (!ix.methods.includes(method))
    throw new LexcaseError('METHOD_UNAVAILABLE', `method "${method}" is not in this index (available: ${ix.methods.join(', ')})`, { field: 'method' });
}

export interface PassageSearch {
  query: string;
  method: string;
  k: number;
  /** Keep only passages whose source is one of these. */
  sources?: readonly string[];
  /** RM3 query expansion (bm25, qld): true or its parameters (retrieval/rm3-params.ts). */
  rm3?: boolean | Record<string, unknown>;
  /**
   * The caller shows at most this many characters of a hit's text: each text is then read only up to
   * 4 × (maxTextChars + 1) bytes, so it is either whole or longer than maxTextChars (the caller's
   * "truncated" stays exact) — a 60 MB passage is not read, inflated and decoded for a snippet.
   */
  maxTextChars?: number;
}

/**
 * The top `k` passages for a query with their stored title, source and text. With `sources`, the
 * top k among passages of those sources (retrieval/filtered-search.ts): the first k the filter keeps
 * of the ranking an unfiltered search cuts its hits from, with their unfiltered scores and ranks
 * 1…k — for hybrid that ranking is the fusion of each component's top `depth`, and when fewer
 * than k kept passages are in it the hits are those, with `note` saying so. A name that is not one of
 * the index's sources is refused (INVALID_INPUT naming them). The filter is resolved to the passages
 * it keeps (a mask from the doc store's in-memory source column), hits are kept by the mask without
 * reading any text, and only the k kept passages are read.
 */
export async function searchPassages(
  ix: OpenedIndex,
  q: PassageSearch,
): Promise<{
  method: string;
  hits: PassageHit[];
  note?: string;
  queryCut?: string;
  querySource?: string;
  rm3NoFeedback?: string;
}> {
  checkMethod(ix, q.method);
  if (q.sources?.length) checkSources(ix, q.sources);
  const retriever = await ix.retriever(q.method, q.rm3 ? { rm3: q.rm3 } : undefined);
  const read = q.maxTextChars !== undefined ? { maxTextBytes: 4 * (q.maxTextChars + 1) } : undefined;
  const withText = async (hits: Hit[]): Promise<PassageHit[]> => {
    const out: PassageHit[] = [];
    for (const h of hits) {
      const p = await ix.docs.get(h.id, read);
      out.push({ id: h.id, score: h.score, rank: out.length + 1, title: p?.title, source: p?.source, text: p?.text ?? '' });
    }
    return out;
  };
  // a query longer than the dense model reads, as `search --json` says it (retrieval/dense-query-cut.ts)
  const cut = queryCutNote(retriever, q.query);
  // queries embedded by another source than the index's passages (warned in the server's log as the index opened)
  const source = querySourceNote(retriever);
  const queryCut = { ...(cut ? { queryCut: cut } : {}), ...(source ? { querySource: source } : {}) };
  // Tied hits in the order of `search --topics` and eval (trec_eval's: retrieval/top-k.ts), the top k of any deeper search; the filtered search reads the same ranking.
  // RM3 whose expansion gained no feedback term ranks as the base method (retrieval/rm3-no-feedback.ts), as `search --json` says it
  const rm3 = async () => {
    const none = await noFeedbackOf(retriever, q.query);
    return none ? { rm3NoFeedback: none } : {};
  };
  if (!q.sources?.length) {
    const hits = await withText(await printedRun(retriever, q.query, q.k));
    return { method: retriever.method, hits, ...queryCut, ...(await rm3()) };
  }
  const { mask, count } = ix.docs.sourceMask(q.sources);
  const r = await searchFiltered(retriever, q.query, q.k, { size: ix.docs.size, kept: count, indexOf: ix.docs.indexOf, keeps: (i) => mask[i] === 1 });
  return { method: retriever.method, hits: await withText(r.hits), ...(r.note ? { note: r.note } : {}), ...queryCut, ...(await rm3()) };
}

/** Every name must be a source of the index: a misspelt one would keep nothing, and say nothing. */
function checkSources(ix: OpenedIndex, names: readonly string[]): void {
  const held = ix.docs.sources();
  const unknown = names.filter((n) => !held.includes(n));
  if (unknown.length) throw errors.unknownSources('filters.sources', unknown, held);
}

/**
 * One passage's per-term explanation of its score for a query. With `rm3` (bm25, qld), of its score
 * under RM3 expansion — the retriever `search --rm3` and searchPassages open — with the expanded query
 * (`expansion`) whose terms, weighted, are the explanation's terms.
 */
export async function explainPassage(
  ix: OpenedIndex,
  q: { query: string; method: string; id: string; rm3?: PassageSearch['rm3'] },
): Promise<{ method: string; explanation: Explanation; expansion?: Rm3Term[] }> {
  checkMethod(ix, q.method);
  const retriever = await ix.retriever(q.method, q.rm3 ? { rm3: q.rm3 } : undefined);
  if (!retriever.explain) throw new LexcaseError('INVALID_INPUT', `method "${q.method}" gives no score explanations`, { field: 'method' });
  if (ix.docs.indexOf(q.id) < 0) throw new LexcaseError('NOT_FOUND', `no passage "${q.id}" in this index`, { field: 'id' });
  const explanation = await retriever.explain(q.query, q.id);
  // RM3: the expanded query the explanation scored (detail.rm3 records it with the parameters and feedback passages)
  const expansion = (explanation.detail?.rm3 as { terms?: Rm3Term[] } | undefined)?.terms;
  return { method: retriever.method, explanation, ...(expansion ? { expansion } : {}) };
}

export interface EvidenceQuery {
  hypothesis: string;
  facts: string;
  against: boolean;
  k: number;
  /** Run the LLM advocate with this model; none = the offline heuristic advocate. */
  llm?: BaseChatModel;
  /** Cancels the advocate's LLM calls (the client went away, the server is stopping). */
  signal?: AbortSignal;
}

/**
 * One CASE advocate over the index: every method it has, fused offline or as the LLM's tools. With a
 * model, the server's description of it (the response cache's check of who wrote an entry) is heard
 * again for this request, not taken from when the process started (core/llm/server-identity.ts), and a
 * change heard while it ran is said on the result (`serverChanged`).
 */
export async function evidenceFor(ix: OpenedIndex, q: EvidenceQuery): Promise<EvidenceResult> {
  const retrievers = await ix.allRetrievers();
  const identity = q.llm ? await import('../../core/llm/server-identity.js') : undefined;
  const mark = identity?.hearAgain();
  const r = await findEvidence({
    hypothesis: q.hypothesis,
    facts: q.facts,
    against: q.against,
    k: q.k,
    retrievers,
    getPassage: ix.getPassage,
    llm: q.llm,
    // the search tools (LangChain) only with a model: a server without one starts without LangChain
    tools: q.llm ? (await import('../../retrieval/tools/index.js')).createRetrievalTools({ retrievers, docs: ix.docs, llm: q.llm, defaultK: q.k }) : undefined,
    ...(q.signal ? { signal: q.signal } : {}),
  });
  const changed = identity && mark !== undefined ? identity.changesSince(mark) : [];
  return changed.length ? { ...r, serverChanged: changed.join('; ') } : r;
}

/** The model for an evidence request's mode: "llm" without a configured model is refused. */
export function evidenceModel(mode: 'auto' | 'offline' | 'llm', llm: BaseChatModel | undefined): BaseChatModel | undefined {
  if (mode === 'llm' && !llm)
    throw new LexcaseError(
      'LLM_NOT_CONFIGURED',
      'no LLM is configured for this server (start it with a lexcase.config.json or LEXCASE_* settings); use mode "offline"',
      { field: 'mode' },
    );
  return mode === 'offline' ? undefined : llm;
}
