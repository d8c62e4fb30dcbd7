/**
 * Round 0 (retrieval prep, paper 002 §3.2/§3.5): the shared Retriever returns the top-k authorities
 * through the retrieval tools (`<method>_search`) for one issue query (facts + question) and one
 * query per option (the option's text; the question stem is prepended when the option has fewer
 * than 3 content terms, e.g. "Yes."), pooled, deduplicated and interleaved by rank so no query's
 * results crowd out another's; the options' queries take their turns in a seeded order (below). Every debater (and the judge) sees the same pool; the baselines get
 * the same pool, so a MAD–baseline difference is the debate's, not the evidence's. Passage text
 * comes from the index doc store (ctx.getPassage), never from the dataset, so gold passages reach a
 * prompt only if the retriever returned them.
 *
 * Why option-text queries: on Bar Exam QA val (124 questions with gold, default index, bm25, k = 5)
 * facts+option queries put a gold passage in the pool for 12.1% of questions, the issue query plus
 * option-text queries (this) for 39.5% (pool of 20.3 passages); see docs/mad.md.
 */
import type { StructuredToolInterface } from '@langchain/core/tools';
import { LETTERS, type Question } from '../../corpora/types.js';
import type { SystemContext } from '../../eval/types.js';
import { errors } from '../../core/errors.js';
import { createAnalyzer } from '../../retrieval/analyzer.js';
import { searchHits } from '../../retrieval/tools/search-hits.js';
import { cutFrom, factsOf } from '../common/question-text.js';
import { seededOrder, type PresentationRecord } from '../common/presentation-order.js';
import type { PoolPassage } from './types.js';

export interface ToolHit {
  id: string;
  score: number;
  rank: number;
  snippet?: string;
}

export function findSearchTool(tools: StructuredToolInterface[], method: string): StructuredToolInterface {
  const name = `${method}_search`;
  const t = tools.find((x) => x.name === name);
  if (!t) throw errors.usage(`the "${method}" retrieval tool (${name}) is not available`, `available tools: ${tools.map((x) => x.name).join(', ') || 'none'}`);
  return t;
}

/** Run a search tool and take its hits from the typed artifact. */
export async function searchWith(tool: StructuredToolInterface, query: string, k: number, signal?: AbortSignal): Promise<ToolHit[]> {
  const parsed = await searchHits(tool, { query, k }, { signal });
  return parsed.results.map((h) => ({ id: String(h.id), score: h.score, rank: h.rank, snippet: h.snippet }));
}

const analyzer = createAnalyzer();

/** The Round-0 query for one option: its text, with the question stem when the option alone is too thin. */
export function optionQuery(q: Pick<Question, 'question'>, choice: string): string {
  return analyzer.tokens(choice).length < 3 ? `${q.question}\n${choice}` : choice;
}

/** How the pool is ordered, as the run's request fingerprint records it (requests.ts): a run of the fixed order is not resumed. */
export const POOL_ORDER = "issue query, then the options' queries in a seeded order (pool options), interleaved by rank";

/**
 * The shared pool and the seeded order of the options' queries in its interleave (issue query
 * first, then the options in `order.order`): within a rank the earlier query's hit gets the lower
 * handle and is credited with a passage two queries share, so a fixed A, B, C, D order favoured
 * option A on every item. Drawn from the item seed (kind `pool options`), recorded in the trace.
 */
/**
 * The trace's pool: each passage's id and query, `cutFrom` (its length) when the prompts show only its
 * first `passageChars` characters, and `fromSnippet` when the doc store had no text and the prompts show
 * the search snippet instead (counted as cut in report.md: its whole length is unknown).
 */
export function poolTrace(
  pool: readonly { id: string; text: string; query: string; fromSnippet?: true }[],
  passageChars: number,
): { id: string; query: string; cutFrom?: number; fromSnippet?: true }[] {
  return pool.map((p) => {
    const n = cutFrom(p.text, passageChars);
    return { id: p.id, query: p.query, ...(n !== undefined ? { cutFrom: n } : {}), ...(p.fromSnippet ? { fromSnippet: true as const } : {}) };
  });
}

export async function buildEvidencePool(
  q: Question,
  ctx: SystemContext,
  method: string,
  k: number,
): Promise<{ pool: PoolPassage[]; order: PresentationRecord }> {
  const tool = findSearchTool(ctx.tools, method);
  const options = q.choices.flatMap((c, i) => (c.trim() ? [{ letter: LETTERS[i], query: optionQuery(q, c) }] : []));
  const drawn = seededOrder(options, (o) => o.letter, { seed: ctx.seed, kind: 'pool options' });
  const queries = [factsOf(q), ...drawn.items.map((o) => o.query)];
  const results: { query: string; hits: ToolHit[] }[] = [];
  for (const query of queries) results.push({ query, hits: await searchWith(tool, query, k, ctx.signal) });
  const pool: PoolPassage[] = [];
  const seen = new Set<string>();
  for (let r = 0; r < k; r++) {
    for (const o of results) {
      const h = o.hits[r];
      if (!h || seen.has(h.id)) continue;
      seen.add(h.id);
      const p = await ctx.getPassage(h.id);
      // no text in the doc store: the search snippet stands in, a cut of its own (poolTrace marks it, report.md counts it)
      pool.push(p?.text !== undefined ? { id: h.id, text: p.text, query: o.query } : { id: h.id, text: h.snippet ?? '', query: o.query, fromSnippet: true });
    }
  }
  return { pool, order: drawn.record };
}
