/**
 * An index of the first 40 bundled Bar Exam passages with bm25, qld and a dense table of the tiny BERT
 * fixture (a transformers model reading at most 512 tokens, as BGE): what the dense-query-cut tests search.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { addDenseIndex } from '../../indexer/dense/add-dense.js';
import { createEmbedder } from '../../indexer/embed/create-embedder.js';
import { BAREXAM_PASSAGES, bundledLines } from './bundled-data.js';

export const TINY_BERT_DIR = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'tests/fixtures/tiny-embedder/tiny-bert');

/** The first 40 bundled Bar Exam passages. */
export const tinyBertPassages = (): Passage[] =>
  bundledLines(BAREXAM_PASSAGES)
    .filter(Boolean)
    .slice(0, 40)
    .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));

/** Builds the index of `passages` (bm25, qld, tiny BERT dense) in `dir`. */
export async function buildTinyBertIndex(dir: string, passages: readonly Passage[]): Promise<void> {
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: dir, corpusName: 'barexam-sample', methods: ['bm25', 'qld'], workers: 0 },
  );
  await addDenseIndex(dir, { embedder: await createEmbedder({ provider: 'transformers', modelDir: TINY_BERT_DIR }), batchSize: 8 });
}
