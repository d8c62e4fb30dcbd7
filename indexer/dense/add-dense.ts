/**
 * addDenseIndex(dir, opts): embed every passage of an index dir's doc store and store (id, vector)
 * in a LanceDB table, then record the `dense` section in manifest.json.
 *
 * - Batches of `batchSize` passages are embedded and appended; each append is one LanceDB commit.
 * - Resumable: a progress file (<dir>/dense-build.json) names the embedder and target; a rerun with
 *   the same embedder skips ids already in the table and continues after the last completed batch
 *   (an interrupted batch was never committed, so nothing is duplicated). Another embedder starts over.
 * - An ANN index (ivf_flat by default, see ann-params.ts) at or above `annThreshold` rows, flat
 *   exact search below.
 * - The manifest is rewritten atomically only at the end, so readers never see a half-built dense index.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Passage } from '../../corpora/types.js';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { createProgress } from '../../core/progress.js';
import { createEmbedder, recordableSpec } from '../embed/create-embedder.js';
import type { Embedder, EmbedderSpec } from '../embed/types.js';
import { openDocStore } from '../docstore.js';
import { readManifest, writeManifest, type Manifest } from '../manifest.js';
import { annParams, DEFAULT_ANN_THRESHOLD, type AnnParams } from './ann-params.js';
import { enclosingProtected, isWithin, realpathLoose } from '../../core/out-dir-rule.js';
import { INDEX_DIR } from '../out-dir.js';
import { DEFAULT_DENSE_TABLE, DEFAULT_DENSE_URI, isRemoteUri, resolveDenseUri, type DenseSection } from './dense-section.js';
import { appendVectors, buildAnnIndex, connectDense, dropVectorIndexes, existingIds, openOrCreate } from './lance-table.js';

export interface AddDenseOptions {
  /** Embedder to use (default use-lite), or an already-created embedder. */
  embedder?: EmbedderSpec | Embedder;
  /** LanceDB URI: default "dense" inside the index dir; absolute path or s3://… also work. */
  uri?: string;
  table?: string;
  /** Passages per embed+append batch (default 256). */
  batchSize?: number;
  /** Build the ANN index at or above this many rows (default 50,000); below, search is flat and exact. */
  annThreshold?: number;
  ann?: Partial<AnnParams>;
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
  /** Passages to embed instead of the dir's doc store (must be the same passages). */
  passages?: AsyncIterable<Passage>;
  /** Spec recorded in the manifest when `embedder` is an instance (default: its provider and model). */
  spec?: EmbedderSpec;
}

const STATE_FILE = 'dense-build.json';

interface BuildState {
  embedderId: string;
  dimension: number;
  uri: string;
  table: string;
}

function isEmbedder(x: unknown): x is Embedder {
  return !!x && typeof (x as Embedder).embed === 'function';
}

/** The text a passage is embedded as: title (when present) and body. */
export function passageEmbedText(p: Passage): string {
  return p.title ? `${p.title}\n${p.text}` : p.text;
}

/**
 * The output-path rule for `--dense-uri` (core/out-dir-rule.ts): a local location outside the index
 * dir may not lie inside a lexcase index (another one's vectors would be overwritten, or the index
 * being rebuilt changed before its replacement is in place).
 */
function checkDenseUri(dir: string, uri: string): void {
  if (isRemoteUri(uri)) return;
  const target = realpathLoose(resolveDenseUri(dir, uri));
  if (isWithin(target, realpathLoose(dir))) return;
  const around = enclosingProtected(target, [INDEX_DIR]);
  if (around)
    throw errors.outDirRefused(
      uri,
      `it lies inside ${around.what} (${around.dir})`,
      'give a --dense-uri outside every index, or leave it out (default: dense/ inside the index)',
      'dense vectors',
    );
}

export async function addDenseIndex(dir: string, opts: AddDenseOptions = {}): Promise<Manifest> {
  const t0 = Date.now();
  checkDenseUri(dir, opts.uri ?? DEFAULT_DENSE_URI);
  const manifest = await readManifest(dir);
  const given = opts.embedder;
  const spec: EmbedderSpec = isEmbedder(given) ? (opts.spec ?? { provider: given.provider, model: given.model }) : (given ?? { provider: 'use-lite' });
  const embedder = isEmbedder(given) ? given : await createEmbedder(spec, { signal: opts.signal });
  const ownEmbedder = !isEmbedder(given);
  const uri = opts.uri ?? DEFAULT_DENSE_URI;
  const table = opts.table ?? DEFAULT_DENSE_TABLE;
  const batchSize = Math.max(1, opts.batchSize ?? 256);
  const threshold = opts.annThreshold ?? DEFAULT_ANN_THRESHOLD;
  const total = manifest.corpus.passages;
  const dbUri = resolveDenseUri(dir, uri);

  try {
    // Resume only when the previous attempt used the same embedder and target.
    const state: BuildState = { embedderId: embedder.id, dimension: embedder.dimension, uri, table };
    let previous: BuildState | undefined;
    try {
      previous = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')) as BuildState;
    } catch {
      previous = undefined;
    }
    const prior = manifest.dense as DenseSection | undefined;
    const sameAsPrior = prior && prior.embedderId === embedder.id && prior.dimension === embedder.dimension && prior.uri === uri && prior.table === table;
    const resume = JSON.stringify(previous) === JSON.stringify(state) || !!sameAsPrior;
    await writeFile(join(dir, STATE_FILE), JSON.stringify(state, null, 2) + '\n');

    const db = await connectDense(dbUri);
    const tbl = await openOrCreate(db, table, embedder.dimension, !resume);
    const done = resume ? await existingIds(tbl) : new Set<string>();
    if (done.size) log.info(`dense: resuming, ${done.size} of ${total} passages already embedded`);

    const bar = createProgress(`embedding (${embedder.id})`, { unit: 'passages' });
    bar.start(total);
    bar.update(done.size);
    let count = done.size;
    opts.onProgress?.(count, total);
    let ids: string[] = [];
    let texts: string[] = [];
    // The next batch is embedded while the previous one is appended: one append in flight at a
    // time, in order (each is one LanceDB commit, so a resumed build still finds whole batches),
    // and at most one embedded batch waiting for it.
    let appending: Promise<void> = Promise.resolve();
    const flush = async () => {
      if (!ids.length) return;
      if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('dense build aborted');
      const batchIds = ids;
      const batchTexts = texts;
      ids = [];
      texts = [];
      const vectors = await embedder.embed(batchTexts, { kind: 'passage', signal: opts.signal });
      for (const v of vectors) if (v.length !== embedder.dimension) throw errors.dimensionMismatch(embedder.dimension, v.length, `embedder ${embedder.id}`);
      await appending;
      if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('dense build aborted');
      appending = appendVectors(tbl, batchIds, vectors).then(() => {
        count += batchIds.length;
        bar.update(count);
        opts.onProgress?.(count, total);
      });
      // Handled here so a failure waiting for the next flush is no unhandled rejection; it is
      // thrown by the next `await appending`.
      appending.catch(() => undefined);
    };
    const store = opts.passages ? undefined : await openDocStore(dir);
    try {
      for await (const p of opts.passages ?? store!.entries()) {
        if (done.has(p.id)) continue;
        ids.push(p.id);
        texts.push(passageEmbedText(p));
        if (ids.length >= batchSize) await flush();
      }
      await flush();
      await appending;
    } finally {
      bar.stop();
      await store?.close();
    }

    const rows = await tbl.countRows();
    if (rows !== total) throw errors.indexCorrupt(dbUri, `dense table "${table}" has ${rows} rows for ${total} passages`);
    // Compact the many small appends into few fragments before indexing / searching.
    await tbl.optimize().catch((e: Error) => log.debug(`dense: optimize skipped: ${e.message}`));
    let ann: DenseSection['ann'] = null;
    if (rows >= threshold) {
      const p = annParams(rows, embedder.dimension, opts.ann);
      log.info(`dense: building ${p.type} (${p.numPartitions} partitions) over ${rows} vectors`);
      await buildAnnIndex(tbl, p);
      ann = { ...p, threshold };
    } else {
      await dropVectorIndexes(tbl);
    }

    const dense: DenseSection = {
      embedder: embedder.provider,
      embedderId: embedder.id,
      model: embedder.model,
      dimension: embedder.dimension,
      uri,
      table,
      metric: 'cosine',
      rows,
      ann,
      annThreshold: threshold,
      spec: recordableSpec(spec) as Partial<EmbedderSpec>,
      buildMs: Date.now() - t0,
    };
    // Re-read: the manifest may have been rewritten meanwhile (e.g. another method added).
    const latest = await readManifest(dir);
    const next: Manifest = { ...latest, methods: [...new Set([...latest.methods, 'dense'])], dense: dense as unknown as Manifest['dense'] };
    await writeManifest(dir, next);
    await rm(join(dir, STATE_FILE), { force: true });
    if (isRemoteUri(uri)) log.info(`dense: ${rows} vectors in ${uri} (table ${table})`);
    return next;
  } finally {
    if (ownEmbedder) await embedder.close?.();
  }
}
