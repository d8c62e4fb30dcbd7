/**
 * Matched-term highlighting: the query and the passage are run through the index's own analyzer
 * (the configuration recorded in its manifest), so a passage word is marked exactly when its index
 * term is one of the query's terms ("Contracts" matches "contract" under Porter stemming).
 */
import type { Analyzer } from '../../indexer/analyzer.js';

/** A run of passage text; `term` is the index term it matched, or null for plain text. */
export type Segment = [text: string, term: string | null];

// Same token shape as the analyzer's scanner: starts with a letter or digit, continues with
// letters, digits and combining marks.
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

export function queryTerms(analyzer: Analyzer, query: string): string[] {
  return [...new Set(analyzer.tokens(query))];
}

export function highlight(analyzer: Analyzer, text: string, terms: Iterable<string>): Segment[] {
  const wanted = new Set(terms);
  const out: Segment[] = [];
  let last = 0;
  const push = (s: string, term: string | null) => {
    if (!s) return;
    const prev = out[out.length - 1];
    if (prev && prev[1] === null && term === null) prev[0] += s;
    else out.push([s, term]);
  };
  for (const m of text.matchAll(TOKEN)) {
    // the analyzer NFC-normalises non-ASCII text before tokenizing; a decomposed word must match too
    const t = analyzer.term(/[^\x00-\x7f]/.test(m[0]) ? m[0].normalize('NFC') : m[0]);
    if (t === null || !wanted.has(t)) continue;
    push(text.slice(last, m.index), null);
    push(m[0], t);
    last = m.index + m[0].length;
  }
  push(text.slice(last), null);
  return out;
}
