/**
 * The index the explorer searches: retrieval's openIndex over the absolute dir, kept for the
 * server's lifetime.
 */
import { resolve } from 'node:path';
import { INDEX_METHODS, openIndex, type OpenedIndex } from '../../retrieval/open-index.js';

/** Methods the explorer offers, in menu order. */
export const EXPLORER_METHODS = INDEX_METHODS;

export type IndexContext = OpenedIndex;

export function openIndexContext(dir: string): Promise<IndexContext> {
  return openIndex(resolve(dir));
}
