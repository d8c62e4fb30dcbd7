/**
 * `eval retrieval`'s results[].config records how a dense table was searched (retriever.config, as
 * bm25's k1 and b): an ANN table's index type with the nprobes / refine factor / ef in force (given,
 * else the manifest's), or `exact` with --exact; hybrid under components.dense. Before, none of
 * --nprobes, --ef, --exact or --refine-factor was recorded, so two reports of one index differing
 * only in them read as the same configuration. A flat table searched as such records nothing new.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage, Question } from '../corpora/types.js';
import { evalRetrieval } from '../eval/retrieval-eval.js';
import { buildIndex } from '../indexer/build.js';
import { addDenseIndex } from '../indexer/dense/add-dense.js';
import { createEmbedder } from '../indexer/embed/create-embedder.js';
import { readManifest } from '../indexer/manifest.js';
import { BAREXAM_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';
import { openRetriever } from './open.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const modelDir = join(repoRoot, 'tests/fixtures/tiny-embedder/tiny-bert');
const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(0, 300)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));
const questions = passages.slice(0, 3).map(
  (p, i) =>
    ({
      id: `q${i}`,
      prompt: p.text.split(/\s+/).slice(0, 20).join(' '),
      question: '',
      choices: [],
      answer: '',
      goldPassageIds: [p.id],
    }) as unknown as Question,
);

let tmp: string;
const build = async (name: string, annThreshold?: number) => {
  const out = join(tmp, name);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out, corpusName: 'barexam-sample', methods: ['bm25', 'qld'], workers: 0 },
  );
  await addDenseIndex(out, {
    embedder: await createEmbedder({ provider: 'transformers', modelDir }),
    batchSize: 64,
    ...(annThreshold ? { annThreshold } : {}),
  });
  return out;
};
let ann: string;
let flat: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-dense-search-config-'));
  ann = await build('ann', 100);
  flat = await build('flat');
}, 120_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

const configOf = async (dir: string, method: string, options: Record<string, unknown> = {}) =>
  (await evalRetrieval({ retriever: await openRetriever(dir, method, options), questions, queryOf: (q) => q.prompt, iterations: 20 })).config;

describe("eval retrieval's results[].config: the dense search settings", () => {
  it('records --nprobes and --refine-factor on an ANN table (dense, and hybrid under components.dense), and the manifest default without them', async () => {
    expect((await configOf(ann, 'dense', { nprobes: 3, refineFactor: 2 }))?.search).toEqual({ type: 'ivf_flat', nprobes: 3, refineFactor: 2 });
    const hybrid = (await configOf(ann, 'hybrid', { nprobes: 3 })) as { components: { dense: Record<string, unknown> } };
    expect(hybrid.components.dense.search).toEqual({ type: 'ivf_flat', nprobes: 3 });
    // nothing given: the index type, with the knobs the manifest records
    const recorded = (await readManifest(ann)).dense as unknown as { ann: { type: string; nprobes: number } };
    expect(recorded.ann).toMatchObject({ type: 'ivf_flat', nprobes: 1 });
    expect((await configOf(ann, 'dense'))?.search).toEqual({ type: 'ivf_flat', nprobes: 1 });
  });

  it('records --exact (the ANN index bypassed) and --ef', async () => {
    expect((await configOf(ann, 'dense', { exact: true }))?.search).toEqual({ type: 'exact', annIndex: 'ivf_flat' });
    expect((await configOf(ann, 'dense', { ef: 40 }))?.search).toEqual({ type: 'ivf_flat', nprobes: 1, ef: 40 });
  });

  it('a flat table searched as such: no search field (its config as before)', async () => {
    expect(await configOf(flat, 'dense')).not.toHaveProperty('search');
    expect((await configOf(flat, 'dense', { exact: true }))?.search).toEqual({ type: 'exact' });
  });
});
