/**
 * GET /api/search?q=…&method=bm25&k=N — ranked passages with matched terms highlighted (no
 * explanations: explaining a hit walks every query term's postings, ~20 ms per hit on a 300K-passage
 * index, so it is done on demand); GET /api/explain?q=…&method=bm25&id=… — the retriever's per-term
 * explanation of one hit, fetched by the app when a hit's explanation is opened; POST /api/evidence {hypothesis, facts?, against?, k?, mode?} —
 * one CASE advocate (offline heuristic, or the LLM advocate when the server has a model).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import type { Explanation } from '../../retrieval/types.js';
import { DEFAULT_K, SEARCH_K } from '../../retrieval/default-k.js';
import { evidenceFor, evidenceModel, explainPassage, searchPassages } from '../../serve/query/index-queries.js';
import { decimalParam } from '../../serve/http/http-util.js';
import { highlight, queryTerms, type Segment } from './highlight.js';
import type { IndexContext } from './index-context.js';
import { cutUnits } from '../../core/truncate.js';

/** Longest passage text sent to the browser per hit. */
export const MAX_PASSAGE_CHARS = 4000;

/**
 * Longest query GET /api/search takes: it travels in the URL, which Node caps with the headers at
 * 16 KiB, and percent-encoding can triple it (the POST surfaces take MAX_QUERY_CHARS).
 */
export const MAX_GET_QUERY_CHARS = 5000;

/**
 * The query parameters are strict, as every other lexcase surface's fields: a misspelt one (`kk=3`,
 * `metod=dense`, `index=…`, which this server does not take) is a 400 naming it, never dropped so
 * that the search ran with the default k or method.
 */
/**
 * `k` as the query string gives it: decimal digits only (decimalParam). Number() coercion took
 * `k=0x3` as 3, `k=1e1` as 10 and `k=%203` (" 3") as 3, and refused an empty `k=` as "Too small: expected >=1".
 */
const searchK = decimalParam('k', 1, 100, SEARCH_K);

export const searchQuerySchema = z
  .object({
    q: z.string().trim().min(1, 'the query is empty').max(MAX_GET_QUERY_CHARS),
    method: z.string().default('bm25'),
    k: searchK,
  })
  .strict();

export interface SearchHitView {
  rank: number;
  id: string;
  score: number;
  title?: string;
  source?: string;
  segments: Segment[];
  truncated: boolean;
}

export const explainQuerySchema = z
  .object({
    q: searchQuerySchema.shape.q,
    method: searchQuerySchema.shape.method,
    id: z.string().min(1).max(500),
  })
  .strict();

const clip = (text: string) => (text.length > MAX_PASSAGE_CHARS ? { text: cutUnits(text, MAX_PASSAGE_CHARS), truncated: true } : { text, truncated: false });

/** The query service's search (serve/query/index-queries.ts), its hits highlighted. */
export async function search(ix: IndexContext, input: z.infer<typeof searchQuerySchema>) {
  const t0 = performance.now();
  const r = await searchPassages(ix, { query: input.q, method: input.method, k: input.k, maxTextChars: MAX_PASSAGE_CHARS });
  const ms = performance.now() - t0;
  const retriever = await ix.retriever(r.method);
  const terms = queryTerms(ix.analyzer, input.q);
  const out: SearchHitView[] = r.hits.map((h) => {
    const { text, truncated } = clip(h.text);
    return { rank: h.rank, id: h.id, score: h.score, title: h.title, source: h.source, segments: highlight(ix.analyzer, text, terms), truncated };
  });
  return {
    query: input.q,
    method: r.method,
    k: input.k,
    ms,
    queryTerms: terms,
    explainable: typeof retriever.explain === 'function',
    hits: out,
    // the query is longer than the dense model reads: the page says so above the hits (as `search --json`)
    ...(r.queryCut ? { queryCut: r.queryCut } : {}),
    ...(r.querySource ? { querySource: r.querySource } : {}),
  };
}

/** One hit's per-term explanation (404 for a passage not in the index). */
export async function explainHit(
  ix: IndexContext,
  input: z.infer<typeof explainQuerySchema>,
): Promise<{ query: string; method: string; id: string; explanation: Explanation }> {
  const r = await explainPassage(ix, { query: input.q, method: input.method, id: input.id });
  return { query: input.q, method: r.method, id: input.id, explanation: r.explanation };
}

export const evidenceBodySchema = z
  .object({
    hypothesis: z.string().trim().min(1, 'the hypothesis is empty').max(4000),
    facts: z.string().max(20000).default(''),
    against: z.boolean().default(false),
    k: z.number().int().min(1).max(20).default(DEFAULT_K),
    mode: z.enum(['offline', 'llm']).default('offline'),
  })
  .strict();

export async function evidence(ix: IndexContext, input: z.infer<typeof evidenceBodySchema>, llm: BaseChatModel | undefined) {
  const r = await evidenceFor(ix, {
    hypothesis: input.hypothesis,
    facts: input.facts,
    against: input.against,
    k: input.k,
    llm: evidenceModel(input.mode, llm),
  });
  const terms = queryTerms(ix.analyzer, `${input.hypothesis} ${input.facts}`);
  return {
    ...r,
    queryTerms: terms,
    evidence: r.evidence.map((e) => {
      const { text, truncated } = clip(e.text ?? '');
      return {
        id: e.id,
        score: e.score,
        justification: e.justification,
        ...(e.noteCutFrom !== undefined ? { noteCutFrom: e.noteCutFrom } : {}),
        segments: highlight(ix.analyzer, text, terms),
        truncated,
      };
    }),
  };
}
