/**
 * GET /api/search?q=…&method=bm25&k=10 — ranked passages with matched terms highlighted (no
 * explanations: explaining a hit walks every query term's postings, ~20 ms per hit on a 300K-passage
 * index, so it is done on demand); GET /api/explain?q=…&method=bm25&id=… — the retriever's per-term
 * explanation of one hit, fetched by the app when a hit's explanation is opened; POST /api/evidence {hypothesis, facts?, against?, k?, mode?} —
 * one CASE advocate (offline heuristic, or the LLM advocate when the server has a model).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { findEvidence } from '../../agents/case/find-evidence.js';
import { createRetrievalTools } from '../../retrieval/tools/index.js';
import type { Explanation } from '../../retrieval/types.js';
import { badRequest, notFound } from './http-util.js';
import { highlight, queryTerms, type Segment } from './highlight.js';
import type { IndexContext } from './index-context.js';

/** Longest passage text sent to the browser per hit. */
export const MAX_PASSAGE_CHARS = 4000;

export const searchQuerySchema = z.object({
  q: z.string().trim().min(1, 'the query is empty').max(2000),
  method: z.string().default('bm25'),
  k: z.coerce.number().int().min(1).max(100).default(10),
});

export interface SearchHitView {
  rank: number;
  id: string;
  score: number;
  title?: string;
  source?: string;
  segments: Segment[];
  truncated: boolean;
}

export const explainQuerySchema = z.object({
  q: searchQuerySchema.shape.q,
  method: searchQuerySchema.shape.method,
  id: z.string().min(1).max(500),
});

const clip = (text: string) => (text.length > MAX_PASSAGE_CHARS ? { text: text.slice(0, MAX_PASSAGE_CHARS), truncated: true } : { text, truncated: false });

function checkMethod(ix: IndexContext, method: string): void {
  if (!ix.methods.includes(method)) throw badRequest(`method "${method}" is not in this index (available: ${ix.methods.join(', ')})`);
}

export async function search(ix: IndexContext, input: z.infer<typeof searchQuerySchema>) {
  checkMethod(ix, input.method);
  const retriever = await ix.retriever(input.method);
  const t0 = performance.now();
  const hits = await retriever.search(input.q, { k: input.k });
  const ms = performance.now() - t0;
  const terms = queryTerms(ix.analyzer, input.q);
  const out: SearchHitView[] = [];
  for (const h of hits) {
    const p = await ix.docs.get(h.id);
    const { text, truncated } = clip(p?.text ?? '');
    out.push({ rank: h.rank, id: h.id, score: h.score, title: p?.title, source: p?.source, segments: highlight(ix.analyzer, text, terms), truncated });
  }
  return { query: input.q, method: retriever.method, k: input.k, ms, queryTerms: terms, explainable: typeof retriever.explain === 'function', hits: out };
}

/** One hit's per-term explanation (404 for a passage not in the index). */
export async function explainHit(ix: IndexContext, input: z.infer<typeof explainQuerySchema>): Promise<{ query: string; method: string; id: string; explanation: Explanation }> {
  checkMethod(ix, input.method);
  const retriever = await ix.retriever(input.method);
  if (!retriever.explain) throw badRequest(`method "${input.method}" gives no score explanations`);
  if (ix.docs.indexOf(input.id) < 0) throw notFound(`no passage "${input.id}" in this index`);
  return { query: input.q, method: retriever.method, id: input.id, explanation: await retriever.explain(input.q, input.id) };
}

export const evidenceBodySchema = z.object({
  hypothesis: z.string().trim().min(1, 'the hypothesis is empty').max(4000),
  facts: z.string().max(20000).default(''),
  against: z.boolean().default(false),
  k: z.number().int().min(1).max(20).default(5),
  mode: z.enum(['offline', 'llm']).default('offline'),
});

export async function evidence(ix: IndexContext, input: z.infer<typeof evidenceBodySchema>, llm: BaseChatModel | undefined) {
  if (input.mode === 'llm' && !llm) throw badRequest('no LLM is configured for this server (start it with a lexcase.config.json or LEXCASE_* settings); use mode "offline"');
  const retrievers = await ix.allRetrievers();
  const getPassage = async (id: string) => (await ix.docs.get(id)) ?? undefined;
  const model = input.mode === 'llm' ? llm : undefined;
  const r = await findEvidence({
    hypothesis: input.hypothesis,
    facts: input.facts,
    against: input.against,
    k: input.k,
    retrievers,
    getPassage,
    llm: model,
    tools: model ? createRetrievalTools({ retrievers, docs: ix.docs, llm: model }) : undefined,
  });
  const terms = queryTerms(ix.analyzer, `${input.hypothesis} ${input.facts}`);
  return {
    ...r,
    queryTerms: terms,
    evidence: r.evidence.map((e) => {
      const { text, truncated } = clip(e.text ?? '');
      return { id: e.id, score: e.score, justification: e.justification, segments: highlight(ix.analyzer, text, terms), truncated };
    }),
  };
}
