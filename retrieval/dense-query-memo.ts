/**
 * A bounded, process-wide memo of dense query vectors: one query is embedded once per process per
 * (embedder identity, query rule, text). The demo's and `eval retrieval`'s `dense` and `hybrid`
 * each open their own dense retriever (hybrid-open.ts opens its dense component afresh), so without
 * it every query was embedded twice by the real model (use-lite: ~30–60 ms of CPU a query).
 *
 * Identity: only embedders a dense retriever builds from an index's recorded spec are memoised,
 * identified by that whole spec (provider, model, engine, prefixes, …; never the API key), and only
 * use-lite, whose vectors are a pure function of the text in this process. A caller's own embedder,
 * a remote or an ONNX one is asked each time, as before. A hit gives a copy of the first vector: the
 * same bits as embedding the query again.
 */
import type { EmbedderSpec } from '../indexer/embed/types.js';

/** Most vectors kept (least recently used dropped first): 512-dim use-lite ≈ 2 KiB each. */
export const QUERY_MEMO_MAX = 1024;

const memo = new Map<string, Promise<Float32Array>>();
/** The memo identity of an embedder built from `spec`, or undefined when its queries are not memoised (not use-lite). */
export function embedderSpecKey(spec: EmbedderSpec): string | undefined {
  if (spec.provider !== 'use-lite') return undefined;
  const { apiKey: _k, ...rest } = spec;
  const sorted = Object.fromEntries(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return `spec:${JSON.stringify(sorted)}`;
}

/** `compute()`'s vector for `key`, computed once while the key stays in the memo (a failure is not kept). */
export async function memoQueryVector(key: string, compute: () => Promise<Float32Array>): Promise<Float32Array> {
  let p = memo.get(key);
  if (p) {
    memo.delete(key);
    memo.set(key, p);
  } else {
    p = compute();
    memo.set(key, p);
    if (memo.size > QUERY_MEMO_MAX) memo.delete(memo.keys().next().value as string);
    p.catch(() => {
      if (memo.get(key) === p) memo.delete(key);
    });
  }
  return (await p).slice();
}

/** Forget every memoised vector (tests). */
export function clearQueryMemo(): void {
  memo.clear();
}
