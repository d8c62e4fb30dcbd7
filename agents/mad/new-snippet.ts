/**
 * Paper 002 §3.2: a rebutting debater "may request one **new** snippet from the Retriever". The
 * debater's search runs deep enough to pass every passage it was already shown (k = shown + 1, at
 * most the search tool's maximum) and returns the highest-ranked hit it was not shown — a Round-0
 * pool passage, a snippet it requested before or an opponent's snippet it read are skipped. When
 * every hit was shown (a tiny index, or more than the maximum shown) the tool replies with no
 * passage and says so (NO_NEW_SNIPPET); report.md counts those requests. Before 2026-12-01 the
 * search ran at k = 1 and its top hit was often a pool passage (40 of 40 requests on Bar Exam QA val):
 * such a run's briefs record no `request.rule`, and report.md counts their repeated snippets.
 */
import type { StructuredToolInterface } from '@langchain/core/tools';
import { MAX_SEARCH_TOOL_K } from '../../retrieval/tools/search-tool.js';
import { searchWith, type ToolHit } from './evidence-pool.js';

/** Recorded in each brief's `request.rule`; a brief without one was requested at k = 1 (its top hit, shown or not). */
export const SNIPPET_RULE_ID = 'new-only';

/** The rule as the run's request fingerprint records it (requests.ts): a run dir of the k = 1 rule is not resumed under it. */
export const SNIPPET_RULE =
  'a requested snippet is the highest-ranked hit of a search at k = shown + 1 (at most the tool maximum) the debater was not already shown; none: an explicit "no new passage" tool reply; the first valid call of a reply runs (a call to a tool not offered or with an empty query is refused and does not use up the round\'s snippet)';

/** The tool reply's note when every hit was a passage the debater was already shown. */
export const NO_NEW_SNIPPET = 'No new passage: every passage this search found is already in your evidence.';

/**
 * The debater's requested snippet: the first hit not in `shown` (none when every hit was shown),
 * the k searched and how many higher-ranked hits were skipped as already shown.
 */
export async function newSnippet(
  tool: StructuredToolInterface,
  query: string,
  shown: ReadonlySet<string>,
  signal?: AbortSignal,
): Promise<{ hits: ToolHit[]; k: number; skipped: number }> {
  const k = Math.min(shown.size + 1, MAX_SEARCH_TOOL_K);
  const all = await searchWith(tool, query, k, signal);
  const i = all.findIndex((h) => !shown.has(h.id));
  return i < 0 ? { hits: [], k, skipped: all.length } : { hits: [all[i]], k, skipped: i };
}
