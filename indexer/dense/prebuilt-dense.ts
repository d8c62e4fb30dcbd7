/**
 * The shipped prebuilt passage vectors of a bundled corpus (indexer/embed/prebuilt.ts) as the dense
 * index of an index dir — when they match it: same corpus checksum (the doc store's ids and texts),
 * the same embedder spec (use-lite, first 128 words) and the same installed model files. Used by
 * `lexcase index build … --methods …,dense` (automatically, when no embedder flag asks for other
 * vectors), `lexcase index dense DIR --prebuilt`, the demo and the retrieval recipes.
 */
import { openDocStore } from '../docstore.js';
import { readManifest } from '../manifest.js';
import { recordableSpec } from '../embed/create-embedder.js';
import { prebuiltMismatch, prebuiltPassageEmbedder, prebuiltVectorsName, readPrebuiltManifest, readPrebuiltVectors } from '../embed/prebuilt.js';
import type { Embedder } from '../embed/types.js';
import { PREBUILT_DENSE_SPEC } from './prebuilt-spec.js';
import { addDenseIndex, passageEmbedText, type AddDenseOptions } from './add-dense.js';

export { PREBUILT_DENSE_SPEC };

/** The prebuilt passage vectors for this index, when they match it (else null, saying why when some exist). */
export async function prebuiltEmbedder(
  indexDir: string,
  corpus: string,
  checksum: string,
  spec: Record<string, unknown>,
  say: (l: string) => void,
): Promise<{ name: string; embedder: Embedder } | null> {
  const name = prebuiltVectorsName(corpus);
  const manifest = await readPrebuiltManifest(name);
  if (!manifest) return null;
  const why = await prebuiltMismatch(manifest, checksum, spec);
  if (why) {
    say(`  not using the prebuilt vectors ${name}: ${why}`);
    return null;
  }
  const pv = await readPrebuiltVectors(name);
  const row = new Map(pv.ids.map((id, i) => [id, i]));
  const rowOfText = new Map<string, number>();
  const store = await openDocStore(indexDir);
  try {
    for await (const p of store.entries()) {
      const r = row.get(p.id);
      if (r !== undefined) rowOfText.set(passageEmbedText(p), r);
    }
  } finally {
    await store.close();
  }
  return { name, embedder: prebuiltPassageEmbedder(pv, rowOfText) };
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
  await addDenseIndex(indexDir, { ...opts, embedder: prebuilt.embedder, spec: PREBUILT_DENSE_SPEC, signal, batchSize: 2048 });
  return prebuilt.name;
}
