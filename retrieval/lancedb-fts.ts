/**
 * `lancedb-fts`: LanceDB's own full-text search (tantivy-style BM25 over an inverted index with
 * English stemming and stop words) over the same passages as the index dir, as a peer method for
 * comparison with lexcase's exact BM25. Built only by an explicit write — `index build --methods
 * bm25,qld,lancedb-fts`, `lexcase index lancedb-fts DIR` or `ensureLanceFts(dir)` — into
 * <dir>/lancedb-fts (table "passages": id, text), and recorded in the manifest's methods. Opening
 * it for search never writes: an index without it is a METHOD_UNAVAILABLE error saying how to add
 * it. Its scores are LanceDB's `_score` (BM25, its own tokenizer and parameters).
 */
import { applyLanceEnv } from '../indexer/dense/lance-env.js';
import * as lancedb from '@lancedb/lancedb';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LANCE_FTS_DIR, LANCE_FTS_TABLE } from '../indexer/lancedb-fts-build.js';
import { lanceUri } from '../indexer/dense/dense-section.js';
import { readManifest } from '../indexer/manifest.js';
import { errors } from '../core/errors.js';
import { warnOnce } from '../core/log.js';
import type { Hit, Retriever, SearchOptions } from './types.js';
import { attachTexts, textStoreFor } from './hit-text.js';
import { resolveSearch } from './search-options.js';

export { ensureLanceFts, LANCE_FTS_DIR } from '../indexer/lancedb-fts-build.js';
const TABLE = LANCE_FTS_TABLE;

/** Open the FTS table read-only; an index without one is METHOD_UNAVAILABLE (with how to add it). */
async function openLanceFtsTable(dir: string): Promise<lancedb.Table> {
  const manifest = await readManifest(dir);
  const path = join(dir, LANCE_FTS_DIR);
  if (!manifest.methods.includes('lancedb-fts') || !existsSync(path)) throw errors.methodUnavailable('lancedb-fts', dir, manifest.methods);
  applyLanceEnv();
  const db = await lancedb.connect(lanceUri(path));
  if (!(await db.tableNames()).includes(TABLE))
    throw errors.indexCorrupt(path, `table "${TABLE}" is missing; rebuild it with: lexcase index lancedb-fts ${dir} --rebuild`);
  return db.openTable(TABLE);
}

/**
 * A query that is one quoted phrase ("adverse possession") searched as its words: LanceDB reads it as a phrase query,
 * which needs word positions the index is built without, and failed with "position is not found but required for phrase
 * queries". Every other method reads quotes as no syntax, so the words are what they search; said once per process.
 */
function asWords(query: string): string {
  const phrase = /^\s*"([^"]*)"\s*$/.exec(query);
  if (!phrase) return query;
  warnOnce(
    'lancedb-fts.phrase',
    () => 'lancedb-fts: a query in quotes is searched as its words, as the other methods search it (the index keeps no word positions for a phrase search)',
  );
  return phrase[1];
}

export async function openLanceFtsRetriever(dir: string): Promise<Retriever> {
  const table = await openLanceFtsTable(dir);
  return {
    method: 'lancedb-fts',
    async search(query: string, sopts?: SearchOptions): Promise<Hit[]> {
      const { k, withText } = resolveSearch(sopts, 'lancedb-fts');
      if (!query.trim() || k === 0) return [];
      const rows = (await table.query().fullTextSearch(asWords(query)).select(['id', '_score']).limit(k).toArray()) as Array<{ id: string; _score: number }>;
      const hits = rows.map((r, i) => ({ id: r.id, score: r._score, rank: i + 1 }));
      return withText ? attachTexts(hits, () => textStoreFor(dir), 'lancedb-fts') : hits;
    },
  };
}
