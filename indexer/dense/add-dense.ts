/**
 * addDenseIndex(dir, opts): embed every passage of an index dir's doc store and store (id, vector)
 * in a LanceDB table, then record the `dense` section in manifest.json.
 *
 * - Batches of `batchSize` passages are embedded and appended; each append is one LanceDB commit.
 * - Resumable: a progress file (<dir>/dense-build.json) names the embedder, its spec and target; a
 *   rerun with the same embedder and the same vector settings (embed/vector-spec.ts: word limit,
 *   prefixes, quantized weights) skips ids already in the table and continues after the last
 *   completed batch (an interrupted batch was never committed, so nothing is duplicated). Another
 *   embedder, or other vector settings, start over — also over a finished dense index, saying which
 *   setting changed — so the manifest never records a spec its vectors were not made with.
 *   Vectors from another source under the same model (another endpoint or model folder, embed/
 *   vector-source.ts) are refused, the table kept (resume-source.ts).
 * - One table per index: outside the index dir the table is passages-<owner>, the owner in the
 *   manifest and the table's schema metadata; an existing table this index did not record (with its
 *   owner) is never overwritten or resumed into (OUT_DIR_REFUSED naming it and its owning index).
 * - An ANN index (ivf_flat by default, see ann-params.ts) at or above `annThreshold` rows, flat
 *   exact search below.
 * - A passage longer than the model reads (use-lite: 128 tokens, embed/model-token-limit.ts) is
 *   embedded from its first tokens: the build says how many of them there are and records the limit
 *   and the count in the dense section (modelMaxTokens, passagesOverModelMaxTokens).
 * - The embedded-text checksum (embedded-text.ts: ids and title + text, what the model reads; the
 *   corpus checksum covers no titles) is recorded as `embeddedTextChecksum`; a kept or resumed
 *   finished table whose recorded one differs is refused.
 * - The manifest is rewritten atomically only at the end, so readers never see a half-built dense index.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type * as lancedb from '@lancedb/lancedb';
import type { Passage } from '../../corpora/types.js';
import { acquireLock } from '../../core/dir-lock.js';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { createProgress } from '../../core/progress.js';
import { createEmbedder, recordableSpec } from '../embed/create-embedder.js';
import type { Embedder, EmbedderSpec } from '../embed/types.js';
import { vectorSettings, vectorSpecChanges } from '../embed/vector-spec.js';
import { olderVectorSources, vectorSource } from '../embed/vector-source.js';
import { modelMaxTokens, overModelMaxTokens } from '../embed/model-token-limit.js';
import { checkResumeSource } from './resume-source.js';
import { EmbeddedTextHash, embeddedTextDiffers, passageEmbedText } from './embedded-text.js';
import { openDocStore } from '../docstore.js';
import { readManifest, writeManifest, type Manifest } from '../manifest.js';
import { annParams, DEFAULT_ANN_THRESHOLD, type AnnParams } from './ann-params.js';
import { enclosingProtected, isWithin, realpathLoose } from '../../core/out-dir-rule.js';
import { INDEX_DIR } from '../out-dir.js';
import { DEFAULT_DENSE_TABLE, DEFAULT_DENSE_URI, denseIdsDigest, isRemoteUri, newDenseOwner, resolveDenseUri, type DenseSection } from './dense-section.js';
import { restoreDenseSwapLocked } from './dense-swap.js';
import { checkDenseStore } from './dense-store.js';
import { recordDenseTableFiles, verifyDenseTableFiles } from './table-files.js';
import {
  appendVectors,
  buildAnnIndex,
  connectDense,
  createDenseTable,
  dropVectorIndexes,
  existingIds,
  idsMismatch,
  ownerText,
  tableDimension,
  tableOwner,
  tryOpenTable,
} from './lance-table.js';

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
  /** The index dir named in the table's owner metadata (default `dir`; a build passes its --out, not its temp dir). */
  indexDir?: string;
  /**
   * What the source of already-made vectors (the shipped prebuilt ones, prebuilt-dense.ts) records
   * of the texts they were embedded from: their embedded-text checksum (embedded-text.ts; absent in
   * an older record: the dense section then records none, the texts unchecked) and the passages
   * longer than the model reads, counted on those texts. With both, no passage is tokenized to count
   * them; the passages' own checksum must be the recorded one (else INDEX_CORRUPT, nothing recorded).
   */
  recordedTexts?: { embeddedTextChecksum?: string; passagesOverModelMaxTokens?: number };
}

const STATE_FILE = 'dense-build.json';

interface BuildState {
  embedderId: string;
  dimension: number;
  uri: string;
  table: string;
  /** The table's owner id (absent in a state file from before owners). */
  owner?: string;
  /** The recordable embedder spec the vectors are made with (absent in a state file from before it). */
  spec?: Partial<EmbedderSpec>;
  /** Where the vectors come from (embed/vector-source.ts; null: nothing beyond the model id; absent in a state file from before it). */
  source?: string | null;
}

function isEmbedder(x: unknown): x is Embedder {
  return !!x && typeof (x as Embedder).embed === 'function';
}

export { passageEmbedText };

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

/**
 * The build time the manifest records: this call's, with how many passages an earlier attempt had
 * embedded when it resumed one; a rerun that found every passage embedded (a no-op resume of the
 * finished table) keeps the recorded build's time instead of its own few milliseconds.
 */
function buildTime(
  prior: DenseSection | undefined,
  now: { uri: string; table: string; owner: string | undefined; rows: number; resumedAt: number; ms: number },
): Pick<DenseSection, 'buildMs' | 'buildResumedAt'> {
  const same = prior && prior.uri === now.uri && prior.table === now.table && prior.owner === now.owner && prior.rows === now.rows;
  if (same && now.resumedAt === now.rows && prior.buildMs !== undefined)
    return { buildMs: prior.buildMs, ...(prior.buildResumedAt ? { buildResumedAt: prior.buildResumedAt } : {}) };
  return { buildMs: now.ms, ...(now.resumedAt ? { buildResumedAt: now.resumedAt } : {}) };
}

/**
 * One writer per index dir: `addDenseIndex` takes the lock an index build of the dir holds
 * (`<dir>.lock`, indexer/build.ts), so a second `index dense` of it, or a build into it, gets LOCKED
 * at once naming the first (before: two `index dense` of one dir both embedded every passage into
 * the one table, then both failed "the table has 480 rows for 240 passages"). A build's own dense
 * step (its temp dir, `indexDir` its --out) runs under the build's lock.
 */
export async function addDenseIndex(dir: string, opts: AddDenseOptions = {}): Promise<Manifest> {
  const buildStep = opts.indexDir !== undefined && resolve(opts.indexDir) !== resolve(dir);
  const lock = buildStep ? undefined : acquireLock(`${realpathLoose(dir)}.lock`, dir, 'index dense');
  try {
    if (lock) await restoreDenseSwapLocked(dir); // a --rebuild stopped mid-swap left no dense/ (dense-swap.ts)
    return await addDenseLocked(dir, opts);
  } finally {
    lock?.release();
  }
}

async function addDenseLocked(dir: string, opts: AddDenseOptions): Promise<Manifest> {
  const t0 = Date.now();
  checkDenseUri(dir, opts.uri ?? DEFAULT_DENSE_URI);
  // an object store that does not answer: one line, before the embedder loads
  await checkDenseStore(opts.uri ?? DEFAULT_DENSE_URI);
  const manifest = await readManifest(dir);
  const given = opts.embedder;
  const spec: EmbedderSpec = isEmbedder(given) ? (opts.spec ?? { provider: given.provider, model: given.model }) : (given ?? { provider: 'use-lite' });
  const embedder = isEmbedder(given) ? given : await createEmbedder(spec, { signal: opts.signal });
  const ownEmbedder = !isEmbedder(given);
  const uri = opts.uri ?? DEFAULT_DENSE_URI;
  const batchSize = Math.max(1, opts.batchSize ?? 256);
  const threshold = opts.annThreshold ?? DEFAULT_ANN_THRESHOLD;
  const total = manifest.corpus.passages;
  const dbUri = resolveDenseUri(dir, uri);

  try {
    const source = await vectorSource(spec);
    // Which table is this index's own: the one its dense-build.json (an interrupted build) or its
    // manifest (a finished one) records at this URI. Resume only into that one, with the same embedder.
    let previous: BuildState | undefined;
    try {
      previous = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8')) as BuildState;
    } catch {
      previous = undefined;
    }
    const prior = manifest.dense as DenseSection | undefined;
    const mine = [previous, prior].filter((x): x is BuildState | DenseSection => !!x && x.uri === uri && (opts.table === undefined || x.table === opts.table));
    // Same embedder, and the same vector settings (a finished table embedded with 256 words is not the vectors of --max-words 5).
    const sameEmbedder = mine.filter((x) => x.embedderId === embedder.id && x.dimension === embedder.dimension);
    const resumeFrom = sameEmbedder.find((x) => !vectorSpecChanges(x.spec, spec, embedder).length);
    const respec = resumeFrom || !sameEmbedder.length ? [] : vectorSpecChanges(sameEmbedder[0].spec, spec, embedder);
    // Inside the index dir the LanceDB database is this index's alone (checkDenseUri keeps others out).
    const inside = !isRemoteUri(uri) && isWithin(realpathLoose(dbUri), realpathLoose(dir));
    const reuse = resumeFrom ?? mine.find((x) => inside || x.owner);
    const fresh = newDenseOwner(manifest.corpus.checksum);
    const table = opts.table ?? reuse?.table ?? (inside ? DEFAULT_DENSE_TABLE : `${DEFAULT_DENSE_TABLE}-${fresh}`);
    // A new table gets a new owner; a resumed one keeps the owner it has (none: a table from before owners).
    let owner: string | undefined = fresh;
    const where = `${dbUri} (dense table "${table}")`;

    const db = await connectDense(dbUri);
    const existing = await tryOpenTable(db, table);
    const store = opts.passages ? undefined : await openDocStore(dir);
    let tbl: lancedb.Table | undefined;
    let done = new Set<string>();
    try {
      if (existing) {
        const theirs = await tableOwner(existing);
        const recorded = mine.filter((x) => x.table === table);
        // Its owner is one this index recorded, or (a table from before owners) this index recorded it and its ids are this index's.
        let ours = inside || (!!theirs && recorded.some((x) => x.owner === theirs.owner));
        let ids: Set<string> | undefined;
        if (!ours && !theirs && recorded.length && recorded.every((x) => !x.owner)) {
          ids = await existingIds(existing);
          const own = new Set(store ? store.ids() : []);
          const finished = recorded.find((x): x is DenseSection => 'rows' in x);
          ours = !!store && [...ids].every((id) => own.has(id)) && (!finished || finished.rows === ids.size);
        }
        if (!ours)
          throw errors.outDirRefused(
            where,
            `the table belongs to ${ownerText(theirs)}, not to ${dir}; writing or resuming into it would mix two corpora's vectors`,
            `leave --dense-table out (each index then gets its own table at that URI), or give another --dense-uri / --dense-table`,
            'dense vectors',
          );
        if (resumeFrom && resumeFrom.owner === theirs?.owner && (await tableDimension(existing)) === embedder.dimension) {
          // the same model and settings; from another endpoint or model folder is other vectors (refused)
          checkResumeSource(resumeFrom, source, { where, embedderId: embedder.id, stateFile: join(dir, STATE_FILE) }, olderVectorSources(spec));
          tbl = existing;
          owner = resumeFrom.owner;
          done = ids ?? (await existingIds(existing));
          const own = new Set(store ? store.ids() : []);
          const foreign = store ? [...done].find((id) => !own.has(id)) : undefined;
          if (foreign !== undefined)
            throw errors.indexCorrupt(where, `the table holds passage "${foreign}", which ${dir} does not have; not resuming into another corpus's vectors`);
          // a finished table kept as it is: its files must be those its build recorded, or this run would record damaged ones as sound
          const keptFiles = !previous && done.size >= total ? (resumeFrom as DenseSection).files : undefined;
          const damaged = keptFiles ? (await verifyDenseTableFiles(dbUri, table, keptFiles)).problems : [];
          if (damaged.length)
            throw errors.indexCorrupt(
              damaged[0].file,
              `${damaged[0].message}${damaged.length > 1 ? ` (and ${damaged.length - 1} more damaged file(s) of ${where})` : ''}: not keeping a damaged dense table`,
              `rebuild the dense part: lexcase index dense ${dir} --rebuild`,
            );
        }
      }
      if (!tbl && respec.length)
        log.warn(`dense: ${where} holds vectors of ${embedder.id} with other settings (${respec.join(', ')}); embedding all ${total} passages again`);
      const state: BuildState = {
        embedderId: embedder.id,
        dimension: embedder.dimension,
        uri,
        table,
        ...(owner ? { owner } : {}),
        spec: recordableSpec(spec) as Partial<EmbedderSpec>,
        source: source ?? null,
      };
      await writeFile(join(dir, STATE_FILE), JSON.stringify(state, null, 2) + '\n');
      tbl ??= await createDenseTable(db, table, embedder.dimension, owner ? { owner, index: opts.indexDir ?? resolve(dir) } : undefined);
    } catch (e) {
      await store?.close();
      throw e;
    }
    // every passage already has its vector: a finished index, nothing to resume (said so, not "resuming")
    if (done.size >= total) log.info(`dense: complete, all ${total} passages already embedded with ${embedder.id}; nothing embedded`);
    else if (done.size) log.info(`dense: resuming, ${done.size} of ${total} passages already embedded`);
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
    const seen: string[] = [];
    const textHash = new EmbeddedTextHash();
    // Passages the model reads only in part (use-lite: past 128 tokens), counted over all of them
    // (also those a resume skips) — unless the vectors' record counted them on these texts.
    const known = opts.recordedTexts;
    const countKnown = known?.embeddedTextChecksum !== undefined && known.passagesOverModelMaxTokens !== undefined;
    const clipped = countKnown ? undefined : (overModelMaxTokens(spec, embedder.provider, embedder.model) ?? embedder.tokenLimit?.readsInPart);
    let over = countKnown ? known.passagesOverModelMaxTokens! : 0;
    // Passages the spec's word limit (--max-words) cut, whose first maxWords words the model then
    // reads whole (a passage the model also cuts is in `over`): before, a transformers build (token
    // count taken after the word cut), an OpenAI-compatible one (nothing counted) and use-lite with a
    // limit under its 128 tokens cut passages there without a word. Not counted where the vectors'
    // record gave `over` (countKnown: no passage is read for it).
    const maxWords = countKnown ? 0 : Number(vectorSettings(spec, embedder.provider, embedder.model).maxWords);
    let overWords = 0;
    try {
      for await (const p of opts.passages ?? store!.entries()) {
        seen.push(p.id);
        const text = passageEmbedText(p);
        textHash.add(p.id, text);
        if (clipped?.(text)) over++;
        else if (maxWords > 0 && wordsOver(text, maxWords)) overWords++;
        if (done.has(p.id)) continue;
        ids.push(p.id);
        texts.push(text);
        if (ids.length >= batchSize) await flush();
      }
      await flush();
      await appending;
    } finally {
      // An embedding failure leaves the previous batch's append in flight: it is waited for, so no
      // LanceDB write lands after this returns (a caller's clean-up of the table's dir then races it).
      await appending.catch(() => undefined);
      bar.stop();
      await store?.close();
    }

    const embeddedTextChecksum = textHash.digest();
    // Vectors recorded as made from other texts (titles) than these passages' are not theirs.
    const recordedText = known ? known.embeddedTextChecksum : done.size ? (resumeFrom as Partial<DenseSection> | undefined)?.embeddedTextChecksum : undefined;
    const textDiffers = recordedText === undefined ? null : embeddedTextDiffers(recordedText, embeddedTextChecksum);
    if (textDiffers && known) throw errors.indexCorrupt(where, `${textDiffers}; not recording them as this index's dense vectors`);
    if (textDiffers)
      throw errors.outDirRefused(
        where,
        `${textDiffers}; keeping them would record them as these passages' vectors (the dense index is kept)`,
        'rerun with --rebuild to embed these passages again (the new dense part replaces this one once it is complete)',
        'dense vectors',
      );
    const rows = await tbl.countRows();
    if (rows !== total) throw errors.indexCorrupt(where, `the table has ${rows} rows for ${total} passages`);
    const idsDigest = denseIdsDigest(await existingIds(tbl));
    const wrong = idsMismatch(idsDigest, denseIdsDigest(seen));
    if (wrong) throw errors.indexCorrupt(where, wrong.replace('the manifest records', `${dir} has`));
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
    const maxTokens = modelMaxTokens(embedder.provider) ?? embedder.tokenLimit?.maxTokens;
    if (maxTokens !== undefined && over)
      log.warn(
        `dense: ${over.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} ${rows === 1 ? 'passage' : 'passages'} ${over === 1 ? 'was' : 'were'} longer than the ${embedder.provider} model's ${maxTokens} tokens: embedded from ${over === 1 ? 'its' : 'their'} first ${maxTokens} tokens`,
      );

    if (overWords)
      log.warn(
        `dense: ${overWords.toLocaleString('en-US')} of ${rows.toLocaleString('en-US')} ${rows === 1 ? 'passage' : 'passages'} ${overWords === 1 ? 'was' : 'were'} longer than the word limit (--max-words ${maxWords}): embedded from ${overWords === 1 ? 'its' : 'their'} first ${maxWords} words${over ? `, which the model reads whole (the ${over.toLocaleString('en-US')} it cuts at its tokens are counted apart)` : ''}`,
      );

    // the model names the endpoint's replies gave (a resumed build: with those its earlier attempt recorded)
    const earlierServed = done.size ? ((resumeFrom as Partial<DenseSection> | undefined)?.servedModels ?? []) : [];
    const servedModels = [...new Set([...earlierServed, ...(embedder.servedModels?.() ?? [])])];
    if (servedModels.length > 1)
      log.warn(
        `dense: the embedding endpoint's replies named ${servedModels.length} models while the passages were embedded (${servedModels.map((m) => `"${m}"`).join(', ')}): if it embedded with more than one, their vectors are not comparable; rebuild with --rebuild once it serves one`,
      );
    // passages whose vectors the endpoint sent without `index` fields, matched in the order they came (a resumed build: with its earlier attempt's)
    const earlierArrival = done.size ? ((resumeFrom as Partial<DenseSection> | undefined)?.vectorsInArrivalOrder ?? 0) : 0;
    const vectorsInArrivalOrder = earlierArrival + (embedder.arrivalOrderVectors?.() ?? 0);
    const files = await recordDenseTableFiles(dbUri, table);
    const dense: DenseSection = {
      embedder: embedder.provider,
      embedderId: embedder.id,
      model: embedder.model,
      dimension: embedder.dimension,
      uri,
      table,
      ...(owner ? { owner } : {}),
      ids: idsDigest,
      metric: 'cosine',
      rows,
      ann,
      annThreshold: threshold,
      spec: recordableSpec(spec) as Partial<EmbedderSpec>,
      ...(source ? { source } : {}),
      ...(servedModels.length ? { servedModels } : {}),
      ...(vectorsInArrivalOrder ? { vectorsInArrivalOrder } : {}),
      // unknown where older prebuilt vectors' record has none (their texts were not checked)
      ...(known && known.embeddedTextChecksum === undefined ? {} : { embeddedTextChecksum }),
      ...(maxTokens !== undefined ? { modelMaxTokens: maxTokens, passagesOverModelMaxTokens: over } : {}),
      // the passages the word limit cut (the model then reading their first maxWords words whole), where counted here
      ...(maxWords > 0 ? { passagesOverMaxWords: overWords } : {}),
      ...buildTime(prior, { uri, table, owner, rows, resumedAt: done.size, ms: Date.now() - t0 }),
      // the table's files as built (after optimize and the ANN index): `index verify` checks their bytes
      ...(files ? { files } : {}),
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

/** Whether `text` has more than `max` whitespace-separated words (embed/batching.ts truncateWords cuts it then), counted without splitting all of it. */
function wordsOver(text: string, max: number): boolean {
  let n = 0;
  for (const _ of text.matchAll(/\S+/g)) if (++n > max) return true;
  return false;
}
