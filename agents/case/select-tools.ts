/** Picks the advocate's tools from ctx.tools by short name (bm25 → bm25_search, rewrite → rewrite_query). */
import type { StructuredToolInterface } from '@langchain/core/tools';
import { errors } from '../../core/errors.js';

export const TOOL_NAMES: Record<string, string> = {
  bm25: 'bm25_search',
  qld: 'qld_search',
  dense: 'dense_search',
  hybrid: 'hybrid_search',
  rewrite: 'rewrite_query',
};

export function toolName(short: string): string {
  return TOOL_NAMES[short] ?? short;
}

export function selectTools(all: StructuredToolInterface[], wanted?: string[]): StructuredToolInterface[] {
  if (!wanted || wanted.length === 0) return all;
  const names = wanted.map(toolName);
  const missing = names.filter((n) => !all.some((t) => t.name === n));
  if (missing.length)
    throw errors.usage(
      `tool(s) not available: ${missing.join(', ')}`,
      `available: ${all.map((t) => t.name).join(', ') || 'none'} (the index may lack a method)`,
    );
  return all.filter((t) => names.includes(t.name));
}
