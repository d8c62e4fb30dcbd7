/**
 * Per-model query/passage prefixes. Instruction-tuned retrieval models expect them:
 * - BGE v1.5 English: the query instruction "Represent this sentence for searching relevant passages: ",
 *   passages without prefix (BAAI's recommendation for short-query → passage retrieval).
 * - E5 (intfloat/e5-*, multilingual-e5-*): "query: " and "passage: ".
 * - nomic-embed-text: "search_query: " and "search_document: ".
 * Others (MiniLM, mpnet, gte, USE): none.
 */
import type { EmbedKind } from './types.js';

export interface Prefixes {
  query: string;
  passage: string;
}

export const BGE_QUERY_INSTRUCTION = 'Represent this sentence for searching relevant passages: ';

export function prefixesFor(model: string): Prefixes {
  const m = model.toLowerCase();
  if (/bge-[a-z]+-en/.test(m) || /bge-(small|base|large)/.test(m)) return { query: BGE_QUERY_INSTRUCTION, passage: '' };
  if (/(^|\/|-)e5-/.test(m) || m.includes('/e5')) return { query: 'query: ', passage: 'passage: ' };
  if (m.includes('nomic-embed-text')) return { query: 'search_query: ', passage: 'search_document: ' };
  return { query: '', passage: '' };
}

export function withPrefix(texts: string[], kind: EmbedKind, p: Prefixes): string[] {
  const prefix = kind === 'query' ? p.query : p.passage;
  return prefix ? texts.map((t) => prefix + t) : texts;
}
