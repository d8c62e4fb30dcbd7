/**
 * The shipped prebuilt passage vectors of a bundled corpus (indexer/embed/prebuilt.ts) as the dense
 * index of an index dir — when they match it: same corpus checksum (the doc store's ids and texts),
 * the same embedder spec (use-lite, first 128 words), the same installed model files, and the same
 * embedded-text checksum (ids and title + text, embedded-text.ts: a corpus whose only change is a
 * title keeps its corpus checksum, not this one). Vectors whose manifest records no embedded-text
 * checksum (an older one) are used with a warning that the titles could not be checked, and the
 * dense section then records none. The manifest's count of passages longer than the model reads
 * (counted on those texts) is recorded as it is, so loading them tokenizes nothing. Used by
 * `lexcase index build … --methods …,dense` (automatically, when no embedder flag asks for other
 * vectors), `lexcase index dense DIR --prebuilt`, the demo and the retrieval recipes.
 */
import { log } from '../../core/log.js';
import { openDocStore } from '../docstore.js';
import { readManifest } from '../manifest.js';
import { recordableSpec } from '../embed/create-embedder.js';
import { modelMaxTokens } from '../embed/model-token-limit.js';
import { PREBUILT_DIR, prebuiltMismatch, prebuiltPassageEmbedder, prebuiltVectorsName, readPrebuiltManifest, readPrebuiltVectors } from '../embed/prebuilt.js';
import type { Embedder } from '../embed/types.js';
import { PREBUILT_DENSE_SPEC } from './prebuilt-spec.js';
import { addDenseIndex, type AddDenseOptions } from './add-dense.js';
import { EmbeddedTextHash, embeddedTextDiffers, passageEmbedText } from './embedded-text.js';

export { PREBUILT_DENSE_SPEC };

export interface PrebuiltDense {
  name: string;
  embedder: Embedder;
  /** What the vectors' manifest records of the texts they were embedded from: pass to addDenseIndex. */
  recordedTexts: NonNullable<AddDenseOptions['recordedTexts']>;
}

/** The prebuilt passage vectors for this index, when they match it (else null, saying why when some exist). `root`: where they lie (tests). */
export async function prebuiltEmbedder(
  indexDir: string,
  corpus: string,
  checksum: string,
  spec: Record<string, unknown>,
  say: (l: string) => void,
  root = PREBUILT_DIR,
): Promise<PrebuiltDense | null> {
  const name = prebuiltVectorsName(corpus);
  const manifest = await readPrebuiltManifest(name, root);
  if (!manifest) return null;
  let why = await prebuiltMismatch(manifest, checksum, spec);
  // The passages' embed texts (title + text) by id, and their checksum: the corpus checksum covers no titles.
  const texts: [string, string][] = [];
  const hash = new EmbeddedTextHash();
  if (!why) {
    const store = await openDocStore(indexDir);
    try {
      for await (const p of store.entries()) {
        const text = passageEmbedText(p);
        texts.push([p.id, text]);
        hash.add(p.id, text);
      }
    } finally {
      await store.close();
    }
  }
  const recorded = manifest.corpus.embeddedTextChecksum;
  if (!why && recorded !== undefined) why = embeddedTextDiffers(recorded, hash.digest());
  if (why) {
    say(`  not using the prebuilt vectors ${name}: ${why}`);
    return null;
  }
  if (recorded === undefined)
    log.warn(
      `dense: the prebuilt vectors ${name} record no embedded-text checksum (an older manifest): whether the passages' titles are the ones they were embedded with could not be checked, and the dense index records none (rebuild the prebuilt vectors with scripts/refresh-prebuilt.mjs, which records it)`,
    );
  const pv = await readPrebuiltVectors(name, root);
  const row = new Map(pv.ids.map((id, i) => [id, i]));
  const rowOfText = new Map<string, number>();
  for (const [id, text] of texts) {
    const r = row.get(id);
    if (r !== undefined) rowOfText.set(text, r);
  }
  // The count of passages longer than the model reads, made on these very texts (same checksum, spec and model).
  const provider = String(spec.provider);
  const counted = recorded !== undefined && manifest.modelMaxTokens !== undefined && manifest.modelMaxTokens === modelMaxTokens(provider);
  return {
    name,
    embedder: prebuiltPassageEmbedder(pv, rowOfText),
    recordedTexts: { embeddedTextChecksum: recorded, ...(counted ? { passagesOverModelMaxTokens: manifest.passagesOverModelMaxTokens } : {}) },
  };
}

/**
 * Add the bundled corpus's prebuilt use-lite vectors to `indexDir` as its dense index, when they
 * match it. Returns their name, or null when there are none for this index (saying why when some
 * exist but do not match). `opts` may place the table (uri, table) and set the ANN parameters.
 */
export async function loadPrebuiltDense(
  indexDir: string,
  say: (l: string) => void,
  signal?: AbortSignal,
  opts: Pick<AddDenseOptions, 'uri' | 'table' | 'ann' | 'annThreshold' | 'indexDir'> = {},
): Promise<string | null> {
  const m = await readManifest(indexDir);
  const prebuilt = await prebuiltEmbedder(indexDir, m.corpus.name, m.corpus.checksum, recordableSpec(PREBUILT_DENSE_SPEC), say);
  if (!prebuilt) return null;
  await addDenseIndex(indexDir, {
    ...opts,
    embedder: prebuilt.embedder,
    spec: PREBUILT_DENSE_SPEC,
    signal,
    batchSize: 2048,
    recordedTexts: prebuilt.recordedTexts,
  });
  return prebuilt.name;
}
