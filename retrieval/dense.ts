/**
 * DenseRetriever: embeds the query with the index's embedder and searches the LanceDB table by
 * cosine distance (score = cosine similarity = 1 − distance). Flat (exact) search below the ANN
 * threshold; above it the manifest's ANN index (ivf_flat by default, or ivf_pq / ivf_hnsw_sq) with its
 * recorded query knobs nprobes / refineFactor / ef (each overridable per retriever).
 *
 * Query: the whole query is embedded by default, in windows the embedder reads whole, mean-pooled
 * (dense-query.ts; `queryWords` N > 0 embeds only the last N words instead — the use-lite default
 * before issue 36, N = 24). The rule in force is `queryConfig`, recorded in every run's config.
 *
 * The query embedder must be the one the index was built with: by default it is recreated from the
 * manifest's recorded spec; a caller-supplied embedder with another model is a clear USAGE error,
 * and one with another dimension is DIMENSION_MISMATCH.
 */
import type * as lancedb from '@lancedb/lancedb';
import { errors } from '../core/errors.js';
import { log } from '../core/log.js';
import { readManifest } from '../indexer/manifest.js';
import type { DenseSection } from '../indexer/dense/dense-section.js';
import { denseIdsDigest, resolveDenseUri } from '../indexer/dense/dense-section.js';
import { applyAnnKnobs, checkDenseTable, connectDense, idsMismatch, openDenseTable } from '../indexer/dense/lance-table.js';
import { verifyDenseOnFirstOpen } from '../indexer/dense/verify-dense.js';
import { createEmbedder } from '../indexer/embed/create-embedder.js';
import { overRecorded } from '../indexer/embed/base-url.js';
import { denseQueryConfig, denseQueryRule, embedDenseQuery, type DenseQueryRule } from './dense-query.js';
import { embedderSpecKey, memoQueryVector } from './dense-query-memo.js';
import { differingQuerySource, differingServedModel } from './dense-query-source.js';
import { countDenseSearch, createQueryCutCounter, queryReadInPart, type DenseQueryUse } from './dense-query-cut.js';
import { FLAT_MEMORY_MAX_ROWS, flatRanks, flatSearch, loadFlatMatrix, type FlatMatrix } from './dense-flat-memory.js';
import type { Embedder, EmbedderSpec } from '../indexer/embed/types.js';
import type { Explanation, Hit, Retriever, SearchOptions } from './types.js';
import { attachTexts, textStoreFor, type TextSource } from './hit-text.js';
import { resolveSearch, searchK } from './search-options.js';

/**
 * What an ivf_hnsw_sq search scores its hits by, as its config records it: a run over such an index
 * from before (scores of the quantised vectors) lacks it, so its resume sees the config differ.
 */
export const HNSW_SQ_SCORES = 'exact cosine of the ANN candidates (refine factor 1)';

export interface DenseOptions {
  /** Query embedder (default: rebuilt from the manifest's spec). */
  embedder?: Embedder;
  /** Spec fields that override the manifest's (e.g. a modelDir on this machine, an endpoint). */
  embedderOverrides?: Partial<EmbedderSpec>;
  nprobes?: number;
  refineFactor?: number;
  /** HNSW beam width (ivf_hnsw_sq indexes). */
  ef?: number;
  /** Force exact flat search even when an ANN index exists. */
  exact?: boolean;
  /** Where `withText` reads passage texts (default for openDenseRetriever: the index dir's doc store). */
  docs?: TextSource;
  /** Exact search in memory instead of LanceDB (default: for tables without an ANN index of at most 20,000 rows). */
  inMemory?: boolean;
  /** Embed only the last N words of a query (default 0: the whole query, windows pooled; dense-query.ts). */
  queryWords?: number;
  /**
   * The query memo's identity of `embedder` (dense-query-memo.ts), set by openDenseRetriever for the
   * use-lite embedders it builds from the index's spec, so a hybrid's dense component reuses dense's
   * vectors; absent (a caller's embedder, other providers): every query is embedded.
   */
  queryMemoKey?: string;
}

/** The last-words rule use-lite queries followed before issue 36 (`queryWords: 24` restores it). */
export const LEGACY_USE_LITE_QUERY_WORDS = 24;

export interface DenseRetriever extends Retriever {
  readonly embedder: Embedder;
  /** How a query becomes a vector (dense-query.ts), as runs record it. */
  readonly config: {
    embedder: string;
    query: ReturnType<typeof denseQueryConfig>;
    querySource?: string;
    annScores?: string;
    /**
     * How the table is searched, where that is a choice: an ANN table's index type and the knobs in
     * force (nprobes, refineFactor, ef: given, else the manifest's), or `exact` (--exact: every row,
     * the ANN index bypassed). Absent for a flat table searched as such (nothing to choose).
     */
    search?: DenseSearchConfig;
  };
  /** The query's vector under that rule. */
  embedQuery(query: string): Promise<Float32Array>;
  /** Search by a ready query vector (must be unit length, index dimension). */
  searchVector(vector: Float32Array, opts?: SearchOptions): Promise<Hit[]>;
  /**
   * Cosine of the query with each of `ids` and its 1-based rank among all passages — what search()
   * with k = all rows would give (equal scores: lower row first) — without ranking them all. Exact
   * flat tables only (in memory or not; or an ANN table opened with `exact`) — absent otherwise, since
   * ANN ranks would be approximate; an id the table lacks is an error. `queryWords` embeds the query
   * under that rule instead of the retriever's (dense-query.ts; a model trained on one rule keeps it).
   */
  similarities?(query: string, ids: readonly string[], opts?: { queryWords?: number }): Promise<{ score: number; rank: number }[]>;
  close(): Promise<void>;
}

export type DenseSearchConfig = { type: 'exact'; annIndex?: string } | { type: string; nprobes?: number; refineFactor?: number; ef?: number };

export function checkEmbedderMatches(section: DenseSection, embedder: Embedder, dir: string): void {
  if (embedder.dimension !== section.dimension)
    throw errors.dimensionMismatch(section.dimension, embedder.dimension, `query embedder ${embedder.id} for index ${dir}`);
  if (embedder.id !== section.embedderId) {
    throw errors.usage(
      `query embedder ${embedder.id} does not match the index's embedder ${section.embedderId} (${dir}); vectors from different models are not comparable`,
      `search with --embedder ${section.embedder}${section.embedder === 'use-lite' ? '' : ` --model ${section.model}`}, or rebuild the dense index with the embedder you want`,
    );
  }
}

export async function openDenseRetriever(dir: string, opts: DenseOptions = {}): Promise<DenseRetriever> {
  const manifest = await readManifest(dir);
  const section = manifest.dense as DenseSection | undefined;
  if (!section || !manifest.methods.includes('dense')) throw errors.methodUnavailable('dense', dir, manifest.methods);
  // Queries come one at a time: use-lite embeds them in this thread (no worker hop: ~2–3 ms less per query).
  const inThread = section.embedder === 'use-lite' ? { workers: 0 } : {};
  // a base URL recorded redacted is given again (the baseURL override or LEXCASE_EMBED_BASE_URL; embed/base-url.ts)
  const spec = overRecorded(section.spec ?? {}, { provider: section.embedder, model: section.model, ...inThread, ...opts.embedderOverrides }) as EmbedderSpec;
  const embedder = opts.embedder ?? (await createEmbedder(spec));
  // an open refused after the embedder was made closes it (its worker threads would outlive the error)
  const opened = await (async () => {
    try {
      checkEmbedderMatches(section, embedder, dir);
      // queries embedded by another endpoint or model folder than the passages: warned, recorded in config (dense-query-source.ts)
      const querySource = opts.embedder
        ? undefined
        : ((await differingQuerySource(section.source, spec, dir)) ?? differingServedModel(section.servedModels, embedder, dir));
      const uri = resolveDenseUri(dir, section.uri);
      const db = await connectDense(uri);
      const table = await openDenseTable(db, section.table, uri);
      // Another index's vectors are never searched as this one's: owner and row count now, ids when loaded.
      await checkDenseTable(table, section, uri, dir);
      // With LEXCASE_VERIFY=1: the table's recorded files hashed on this process's first open (a vector byte changed is INDEX_CORRUPT)
      await verifyDenseOnFirstOpen(dir, section, uri);
      return { querySource, uri, table };
    } catch (e) {
      if (!opts.embedder) await embedder.close?.().catch(() => undefined);
      throw e;
    }
  })();
  const { querySource, uri, table } = opened;
  const maxWords = (section.spec as EmbedderSpec | undefined)?.maxWords;
  const built = opts.embedder ? undefined : embedderSpecKey(spec);
  const memo = built ? { queryMemoKey: built } : {};
  return createDenseRetriever(
    table,
    { ...section, maxWords, where: `${uri} (dense table "${section.table}")`, ...(querySource ? { querySource } : {}) },
    embedder,
    { docs: () => textStoreFor(dir), ...opts, ...memo },
    () => (opts.embedder ? Promise.resolve() : (embedder.close?.() ?? Promise.resolve())),
  );
}

/**
 * LanceDB's top `k` (k ≥ 1) with equal distances ordered by passage id. LanceDB returns tied rows in
 * storage order, which differs between two builds of the same vectors; so one row more than k is
 * asked for, and while the last row fetched still has the k-th distance (the tied group may go on
 * past it) twice as many, until the whole group is in; then (distance, id) order, cut at k.
 */
async function lanceTopK(
  k: number,
  query: (n: number) => Promise<Array<{ id: string; _distance: number }>>,
): Promise<Array<{ id: string; _distance: number }>> {
  let n = k + 1;
  let rows = await query(n);
  while (rows.length === n && rows[k - 1]._distance === rows[n - 1]._distance) rows = await query((n *= 2));
  return rows.sort((a, b) => a._distance - b._distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, k);
}

export function createDenseRetriever(
  table: lancedb.Table,
  section: Pick<DenseSection, 'rows' | 'ann' | 'dimension' | 'ids'> & { maxWords?: number; where?: string; querySource?: string },
  embedder: Embedder,
  opts: DenseOptions = {},
  onClose: () => Promise<void> = async () => {},
): DenseRetriever {
  const nprobes = opts.nprobes ?? section.ann?.nprobes;
  // ivf_hnsw_sq ranks by 8-bit scalar-quantised distances, and without a refine step those were the
  // scores printed and fused (0.8814 for a cosine of 0.9392): its candidates are rescored on the
  // stored vectors (refine factor 1: the same candidates, exact cosines), recorded in the config.
  const hnswRescored = section.ann?.type === 'ivf_hnsw_sq' && !opts.exact;
  const refine = opts.refineFactor ?? section.ann?.refineFactor ?? (hnswRescored ? 1 : undefined);
  const ef = opts.ef ?? section.ann?.ef;
  const annType = section.ann ? (section.ann.type ?? 'ivf_pq') : undefined;
  // an ANN knob where no ANN search runs changes nothing: said, not dropped silently (an nprobes sweep over a flat table printed one figure)
  const knobs = (['nprobes', 'refineFactor', 'ef'] as const).filter((key) => opts[key] !== undefined);
  if (knobs.length && (opts.exact || !annType))
    log.warn(
      `${knobs.length > 1 ? 'options' : 'option'} ${knobs.map((key) => `"${key}"`).join(', ')} (${knobs.map((key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')}) ${knobs.length > 1 ? 'are' : 'is'} ignored: ${opts.exact ? 'an exact search (exact / --exact) reads no ANN setting' : 'the dense table has no ANN index (a flat, exact search)'}`,
    );
  // recorded in the config (eval retrieval's results[].config): an ANN search's knobs, or --exact
  const searchConfig: DenseSearchConfig | undefined = opts.exact
    ? { type: 'exact', ...(annType ? { annIndex: annType } : {}) }
    : annType
      ? {
          type: annType,
          ...(nprobes !== undefined ? { nprobes } : {}),
          ...(refine !== undefined ? { refineFactor: refine } : {}),
          ...(ef !== undefined ? { ef } : {}),
        }
      : undefined;
  const rule: DenseQueryRule = denseQueryRule(opts.queryWords);
  const queryConfig = denseQueryConfig(rule, embedder.provider, section.maxWords);
  // Small flat tables are searched in memory (dense-flat-memory.ts); `inMemory: false` keeps LanceDB.
  const inMemory = opts.inMemory ?? (!section.ann && section.rows <= FLAT_MEMORY_MAX_ROWS);
  let matrix: Promise<FlatMatrix> | undefined;
  // The rows in memory, their ids checked against the manifest's digest (when it records one).
  const loadMatrix = () =>
    (matrix ??= loadFlatMatrix(table, section.rows, section.dimension).then((m) => {
      const bad = idsMismatch(denseIdsDigest(m.ids), section.ids);
      if (bad) throw errors.indexCorrupt(section.where ?? 'dense table', bad);
      return m;
    }));
  let rowOf: Map<string, number> | undefined;
  const memoKey = opts.queryMemoKey;
  // One vector per (embedder spec, rule, query) per process (dense-query-memo.ts): dense and hybrid's dense component share it.
  // queries the model reads only in part: warned once, counted (dense-query-cut.ts)
  const cuts = createQueryCutCounter(embedder, section.maxWords);
  const embedUnder = (query: string, r: DenseQueryRule, use: DenseQueryUse = 'search') => {
    cuts.see(query, r);
    // an agent item's own count (results.jsonl denseSearches): a similarity query (the learned selector's signals) apart from the searches
    countDenseSearch(embedder, query, r, section.maxWords, use);
    return memoKey === undefined
      ? embedDenseQuery(embedder, query, r, section.maxWords)
      : memoQueryVector(`${memoKey}\u0000${JSON.stringify(r)}\u0000${section.maxWords ?? 0}\u0000${query}`, () =>
          embedDenseQuery(embedder, query, r, section.maxWords),
        );
  };
  const embedQuery = (query: string) => embedUnder(query, rule);

  /** The search's LanceDB query for the top `n` rows: the ANN index with its knobs, or every row (flat tables, --exact). */
  const tableQuery = (vector: Float32Array, n: number) => {
    let q = table.vectorSearch(vector).column('vector').distanceType('cosine').select(['id', '_distance']).limit(n);
    // HNSW's beam must hold the n hits asked for (LanceDB refused a k past ef: "ef must be greater
    // than or equal to k", so eval retrieval's and hybrid's depth 1,000 failed on every such index)
    if (section.ann && !opts.exact) q = applyAnnKnobs(q, { nprobes, refineFactor: refine, ef: ef === undefined ? ef : Math.max(ef, n) });
    else if (opts.exact) q = q.bypassVectorIndex();
    return q;
  };
  /** One row's cosine by `query` (the search's, or every row's) restricted to the passage; undefined when it does not reach the row. */
  const rowScore = async (query: lancedb.VectorQuery, id: string): Promise<number | undefined> => {
    const rows = (await query.where(`id = '${id.replace(/'/g, "''")}'`).toArray()) as Array<{ id: string; _distance: number }>;
    return rows.length ? 1 - rows[0]._distance : undefined;
  };

  const searchVector = async (vector: Float32Array, sopts?: SearchOptions): Promise<Hit[]> => {
    const k = searchK(sopts?.k);
    if (vector.length !== section.dimension) throw errors.dimensionMismatch(section.dimension, vector.length, 'query vector');
    const limit = Math.min(k, section.rows);
    if (limit === 0) return [];
    if (inMemory) {
      const hits = flatSearch(await loadMatrix(), vector, limit);
      return sopts?.withText ? attachTexts(hits, opts.docs, 'dense') : hits;
    }
    const rows = await lanceTopK(limit, (n) => tableQuery(vector, n).toArray() as Promise<Array<{ id: string; _distance: number }>>);
    const hits = rows.map((r, i) => ({ id: r.id, score: 1 - r._distance, rank: i + 1 }));
    return sopts?.withText ? attachTexts(hits, opts.docs, 'dense') : hits;
  };

  const similarities = async (query: string, ids: readonly string[], sopts?: { queryWords?: number }): Promise<{ score: number; rank: number }[]> => {
    const vector = () => embedUnder(query, sopts?.queryWords === undefined ? rule : denseQueryRule(sopts.queryWords), 'similarity');
    if (!inMemory) {
      // larger tables: LanceDB's exact search over every row
      const all = new Map((await searchVector(await vector(), { k: section.rows })).map((h) => [h.id, h]));
      return ids.map((id) => {
        const h = all.get(id);
        if (!h) throw errors.notFound('passage in dense index', id);
        return { score: h.score, rank: h.rank };
      });
    }
    const m = await loadMatrix();
    rowOf ??= new Map(m.ids.map((id, i) => [id, i]));
    const rows = ids.map((id) => {
      const r = rowOf!.get(id);
      if (r === undefined) throw errors.notFound('passage in dense index', id);
      return r;
    });
    return flatRanks(m, await vector(), rows);
  };

  return {
    method: 'dense',
    embedder,
    config: {
      embedder: embedder.id,
      query: queryConfig,
      ...(section.querySource ? { querySource: section.querySource } : {}),
      ...(hnswRescored ? { annScores: HNSW_SQ_SCORES } : {}),
      ...(searchConfig ? { search: searchConfig } : {}),
    },
    embedQuery,
    searchVector,
    queriesReadInPart(queries?: readonly string[]) {
      for (const q of queries ?? []) if (q.trim()) cuts.see(q, rule);
      return cuts.counts();
    },
    queryReadInPart(query: string) {
      const r = query.trim() ? queryReadInPart(embedder, query, rule, section.maxWords) : undefined;
      return r?.cut ? { provider: embedder.provider, maxTokens: r.maxTokens } : undefined;
    },
    async search(query: string, sopts?: SearchOptions): Promise<Hit[]> {
      const s = resolveSearch(sopts, 'dense');
      if (!query.trim()) return [];
      return searchVector(await embedQuery(query), { k: s.k, withText: s.withText });
    },
    ...(section.ann && !opts.exact ? {} : { similarities }),
    async explain(query: string, id: string): Promise<Explanation> {
      // The score the search gives the passage, from the search's own arithmetic (the in-memory
      // kernel's, or LanceDB's float distance of the row by the search's own query), not a double
      // recompute that differed from the printed search score in the last digits.
      const v = await embedQuery(query);
      const search = section.ann && !opts.exact ? { type: section.ann.type ?? 'ivf_pq', nprobes, refineFactor: refine, ef } : { type: 'flat' };
      const detail = { embedder: embedder.id, dimension: embedder.dimension, metric: 'cosine', query: queryConfig, search };
      if (inMemory) {
        const m = await loadMatrix();
        rowOf ??= new Map(m.ids.map((rid, i) => [rid, i]));
        const row = rowOf.get(id);
        if (row === undefined) throw errors.notFound('passage in dense index', id);
        return { id, method: 'dense', score: flatRanks(m, v, [row])[0].score, terms: [], detail };
      }
      // every row's exact cosine (the stored vectors; a flat table's and --exact's search score)
      const exactScore = await rowScore(tableQuery(v, 1).bypassVectorIndex(), id);
      if (exactScore === undefined) throw errors.notFound('passage in dense index', id);
      if (!section.ann || opts.exact) return { id, method: 'dense', score: exactScore, terms: [], detail };
      // An ANN table: the search scores its candidates by the index's distances (ivf_pq without a
      // refine step: quantised, 0.3 off the exact cosine; ivf_flat: in its own float order), so the
      // score is the search's query's, restricted to the passage (the same partitions probed, the same
      // knobs), and the exact cosine is given beside it. The search does not reach a passage whose
      // partitions it does not probe: then the score is the exact cosine and annScore is null.
      const annScore = await rowScore(tableQuery(v, 1), id);
      return {
        id,
        method: 'dense',
        score: annScore ?? exactScore,
        terms: [],
        detail: {
          ...detail,
          annScore: annScore ?? null,
          exactScore,
          ...(annScore === undefined ? { note: `the ${search.type} search with these knobs does not reach this passage: score is the exact cosine` } : {}),
        },
      };
    },
    close: onClose,
  };
}
