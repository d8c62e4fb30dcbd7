/**
 * Hybrid-RAG evidence for the arena (ACAL §3.2.1), gathered through the retrieval tools: the
 * `hybrid_search` tool when the index has it (bm25/qld fused with dense), else the first of
 * bm25_search, qld_search, dense_search. Full passage text comes from the doc store; the tool's
 * snippet is the fallback. No web search (non-goal: no network).
 */
import type { SystemContext } from '../../eval/types.js';
import type { EvidencePassage } from './llm/common.js';
import { searchHits } from '../../retrieval/tools/search-hits.js';

export const EVIDENCE_TOOL_ORDER = ['hybrid_search', 'bm25_search', 'qld_search', 'dense_search'] as const;

interface ToolResult {
  results?: { id: string; title?: string; snippet?: string }[];
}

export async function gatherEvidence(
  ctx: Pick<SystemContext, 'tools' | 'getPassage'>,
  query: string,
  k: number,
): Promise<{ tool: string | null; passages: EvidencePassage[] }> {
  const tool = EVIDENCE_TOOL_ORDER.map((n) => ctx.tools.find((t) => t.name === n)).find(Boolean);
  if (!tool || k <= 0) return { tool: null, passages: [] };
  const parsed = await searchHits(tool, { query, k });
  const passages: EvidencePassage[] = [];
  for (const r of parsed.results) {
    const full = await ctx.getPassage(r.id);
    const text = full?.text ?? r.snippet ?? '';
    if (!text) continue;
    const title = full?.title ?? r.title;
    passages.push({ id: r.id, text, ...(title ? { title } : {}) });
  }
  return { tool: tool.name, passages };
}
