/** The LanceDB side of the dense index: schema, open/create, existing ids, append, ANN index. */
import { applyLanceEnv } from './lance-env.js';
import * as lancedb from '@lancedb/lancedb';
import { createRequire } from 'node:module';
import type { FixedSizeList, Schema, Table as ArrowTable } from 'apache-arrow';

// @lancedb/lancedb is CommonJS and checks `instanceof` against its own (CJS) apache-arrow classes;
// build Arrow objects from that same module instance, not from apache-arrow's ESM build.
const arrow = createRequire(import.meta.url)('apache-arrow') as typeof import('apache-arrow');
const { Field, Float32, makeData, RecordBatch, Struct, Utf8, vectorFromArray } = arrow;
import { errors } from '../../core/errors.js';
import { liveHolder } from '../../core/dir-lock.js';
import { realpathLoose } from '../../core/out-dir-rule.js';
import type { AnnParams } from './ann-params.js';
import { lanceUri, type DenseIdsDigest } from './dense-section.js';

/** Schema metadata keys that say which index a table belongs to. */
export const OWNER_KEY = 'lexcase.owner';
export const OWNER_INDEX_KEY = 'lexcase.index';

export interface TableOwner {
  /** The owner id the index recorded in its manifest (dense.owner). */
  owner: string;
  /** The index dir that created the table, as it was given then (for messages). */
  index?: string;
}

export function denseSchema(dim: number, owner?: TableOwner): Schema {
  const meta = new Map<string, string>();
  if (owner) {
    meta.set(OWNER_KEY, owner.owner);
    if (owner.index) meta.set(OWNER_INDEX_KEY, owner.index);
  }
  return new arrow.Schema(
    [new Field('id', new Utf8(), false), new Field('vector', new arrow.FixedSizeList(dim, new Field('item', new Float32(), true)), false)],
    meta,
  );
}

/** The owner written in a table's schema metadata, or undefined (a table from before owners, or not lexcase's). */
export async function tableOwner(t: lancedb.Table): Promise<TableOwner | undefined> {
  const meta = (await t.schema()).metadata;
  const owner = meta.get(OWNER_KEY);
  if (!owner) return undefined;
  const index = meta.get(OWNER_INDEX_KEY);
  return index ? { owner, index } : { owner };
}

/** "index /x/ix-e3 (owner …)" or "another index" for messages. */
export function ownerText(o: TableOwner | undefined): string {
  if (!o) return 'another index, or a lexcase from before tables had owners';
  return o.index ? `index ${o.index} (owner ${o.owner})` : `the index with owner ${o.owner}`;
}

export async function connectDense(uri: string): Promise<lancedb.Connection> {
  try {
    applyLanceEnv();
    return await lancedb.connect(lanceUri(uri));
  } catch (e) {
    throw errors.embedderUnavailable(
      `cannot open LanceDB at ${uri}: ${(e as Error).message}`,
      'for object storage set the usual credentials (AWS_* / GOOGLE_* / AZURE_*) in the environment',
    );
  }
}

/**
 * Open a table, or undefined when it does not exist. Opens by name instead of looking in
 * `tableNames()`: on S3-compatible stores whose delimiter listing differs from AWS's (s3rver,
 * some MinIO/R2 setups) LanceDB lists no tables although they open fine.
 */
export async function tryOpenTable(db: lancedb.Connection, table: string): Promise<lancedb.Table | undefined> {
  try {
    return await db.openTable(table);
  } catch (e) {
    if (/not found|does not exist/i.test((e as Error).message)) return undefined;
    throw e;
  }
}

export async function openDenseTable(db: lancedb.Connection, table: string, context: string): Promise<lancedb.Table> {
  const t = await tryOpenTable(db, table);
  if (!t) throw errors.indexCorrupt(context, `LanceDB table "${table}" is missing`);
  return t;
}

/** The vector length of a table, or undefined when it has no fixed-size vector column. */
export async function tableDimension(t: lancedb.Table): Promise<number | undefined> {
  const field = (await t.schema()).fields.find((f) => f.name === 'vector');
  return (field?.type as FixedSizeList | undefined)?.listSize;
}

/** Create the table empty, replacing one of that name (the caller has checked it is this index's own). */
export async function createDenseTable(db: lancedb.Connection, table: string, dim: number, owner?: TableOwner): Promise<lancedb.Table> {
  return db.createEmptyTable(table, denseSchema(dim, owner), { mode: 'overwrite' });
}

/** Open the table for appending, or create it empty (`fresh` drops an existing one). For benches and tests; builds go through add-dense.ts. */
export async function openOrCreate(db: lancedb.Connection, table: string, dim: number, fresh: boolean): Promise<lancedb.Table> {
  const existing = fresh ? undefined : await tryOpenTable(db, table);
  if (existing && (await tableDimension(existing)) === dim) return existing;
  return createDenseTable(db, table, dim);
}

/**
 * Check an opened table against the manifest's dense section before it is searched: the owner in
 * its schema metadata (when the manifest records one), then its row count. Throws INDEX_CORRUPT
 * naming the table and URI, so another index's vectors are never returned as hits.
 */
export async function checkDenseTable(t: lancedb.Table, section: { table: string; rows: number; owner?: string }, uri: string, dir: string): Promise<void> {
  const where = `${uri} (dense table "${section.table}")`;
  const hint = `the table no longer holds ${dir}'s vectors; rebuild its dense index: lexcase index dense ${dir} --dense-uri NEW_URI (with its embedder flags)`;
  let problem: string | undefined;
  if (section.owner) {
    const o = await tableOwner(t);
    if (o?.owner !== section.owner) problem = `the table belongs to ${ownerText(o)}, not to ${dir} (owner ${section.owner})`;
  }
  if (!problem) {
    const rows = await t.countRows();
    if (rows !== section.rows) problem = `the table has ${rows} rows, the manifest of ${dir} records ${section.rows} (another index may have written it)`;
  }
  if (!problem) return;
  // `index dense` re-embedding this index in place (another embedder or vector settings) holds its lock: not damage, a writer at work
  const writer = liveHolder(`${realpathLoose(dir)}.lock`);
  if (writer) throw errors.indexBeingWritten(dir, where, `${writer.what} (pid ${writer.pid}, since ${writer.since})`, problem);
  throw errors.indexCorrupt(where, problem, hint);
}

/** Problem with a loaded table's ids against the manifest's digest, or undefined when they match. */
export function idsMismatch(got: DenseIdsDigest, want: DenseIdsDigest | undefined): string | undefined {
  if (!want || (got.sha256 === want.sha256 && got.first === want.first && got.last === want.last)) return undefined;
  return `its passage ids (${JSON.stringify(got.first)} … ${JSON.stringify(got.last)}, sha256 ${got.sha256.slice(0, 12)}…) are not the ones the manifest records (${JSON.stringify(want.first)} … ${JSON.stringify(want.last)}, sha256 ${want.sha256.slice(0, 12)}…)`;
}

/** All ids already in the table (for resuming a build). */
export async function existingIds(t: lancedb.Table): Promise<Set<string>> {
  const ids = new Set<string>();
  if ((await t.countRows()) === 0) return ids;
  for await (const batch of t.query().select(['id'])) {
    const col = batch.getChild('id')!;
    for (let i = 0; i < col.length; i++) ids.add(col.get(i) as string);
  }
  return ids;
}

/** Append one batch; LanceDB commits each add as one version, so a batch is all-or-nothing. */
export async function appendVectors(t: lancedb.Table, ids: string[], vectors: Float32Array[]): Promise<void> {
  if (!ids.length) return;
  await t.add(vectorsToArrow(ids, vectors));
}

/** Build an Arrow table (id, vector) straight from Float32Arrays (no per-number JS arrays). */
export function vectorsToArrow(ids: string[], vectors: Float32Array[]): ArrowTable {
  const dim = vectors[0].length;
  const flat = new Float32Array(ids.length * dim);
  vectors.forEach((v, i) => {
    if (v.length !== dim) throw errors.dimensionMismatch(dim, v.length, `vector for "${ids[i]}"`);
    flat.set(v, i * dim);
  });
  const schema = denseSchema(dim);
  const vecType = schema.fields[1].type as FixedSizeList;
  const child = makeData({ type: new Float32(), length: flat.length, nullCount: 0, data: flat });
  const vecData = makeData({ type: vecType, length: ids.length, nullCount: 0, child });
  const idData = vectorFromArray(ids, new Utf8()).data[0];
  const struct = makeData({ type: new Struct(schema.fields), length: ids.length, nullCount: 0, children: [idData, vecData] });
  return new arrow.Table([new RecordBatch(schema, struct)]);
}

/** The LanceDB index config for these parameters (cosine distance on unit vectors). */
export function annIndexConfig(p: AnnParams): lancedb.Index {
  const distanceType = 'cosine' as const;
  switch (p.type) {
    case 'ivf_pq':
      return lancedb.Index.ivfPq({ numPartitions: p.numPartitions, numSubVectors: p.numSubVectors, distanceType });
    case 'ivf_hnsw_sq':
      return lancedb.Index.hnswSq({ numPartitions: p.numPartitions, m: p.m, efConstruction: p.efConstruction, distanceType });
    case 'ivf_flat':
      return lancedb.Index.ivfFlat({ numPartitions: p.numPartitions, distanceType });
    default:
      throw errors.invalidInput('ann.type', `unknown ANN index type "${(p as { type: string }).type}"`);
  }
}

/** LanceDB's name for the index type (listIndices().indexType). */
export const LANCE_INDEX_TYPE: Record<AnnParams['type'], string> = { ivf_flat: 'IvfFlat', ivf_pq: 'IvfPq', ivf_hnsw_sq: 'IvfHnswSq' };

export async function buildAnnIndex(t: lancedb.Table, p: AnnParams): Promise<void> {
  await t.createIndex('vector', { config: annIndexConfig(p), replace: true });
}

/** Apply an index's query-time knobs (nprobes, refineFactor, ef) to a vector query. */
export function applyAnnKnobs(q: lancedb.VectorQuery, k: { nprobes?: number; refineFactor?: number; ef?: number }): lancedb.VectorQuery {
  if (k.nprobes) q = q.nprobes(k.nprobes);
  if (k.refineFactor) q = q.refineFactor(k.refineFactor);
  if (k.ef) q = q.ef(k.ef);
  return q;
}

/** Drop a vector index if present (a rebuild below the threshold searches flat). */
export async function dropVectorIndexes(t: lancedb.Table): Promise<void> {
  for (const ix of await t.listIndices()) if (ix.columns.includes('vector')) await t.dropIndex(ix.name);
}
