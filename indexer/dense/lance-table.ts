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
import type { AnnParams } from './ann-params.js';
import { lanceUri } from './dense-section.js';

export function denseSchema(dim: number): Schema {
  return new arrow.Schema([
    new Field('id', new Utf8(), false),
    new Field('vector', new arrow.FixedSizeList(dim, new Field('item', new Float32(), true)), false),
  ]);
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

/** Open the table for appending, or create it empty (`fresh` drops an existing one). */
export async function openOrCreate(db: lancedb.Connection, table: string, dim: number, fresh: boolean): Promise<lancedb.Table> {
  const existing = fresh ? undefined : await tryOpenTable(db, table);
  if (existing) {
    const t = existing;
    const field = (await t.schema()).fields.find((f) => f.name === 'vector');
    const have = (field?.type as FixedSizeList | undefined)?.listSize;
    if (have === dim) return t;
  }
  return db.createEmptyTable(table, denseSchema(dim), { mode: 'overwrite' });
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
