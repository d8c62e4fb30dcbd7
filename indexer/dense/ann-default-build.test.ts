import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clusteredVectors, exactTopK } from '../../bench/clustered-vectors.js';
import type { Passage } from '../../corpora/types.js';
import { openDenseRetriever } from '../../retrieval/dense.js';
import type { Embedder } from '../embed/types.js';
import { buildIndex } from '../build.js';
import { readManifest } from '../manifest.js';
import { addDenseIndex } from './add-dense.js';
import { DEFAULT_ANN_TYPE } from './ann-params.js';
import type { DenseSection } from './dense-section.js';
import { connectDense, LANCE_INDEX_TYPE, openDenseTable } from './lance-table.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const v = clusteredVectors({ n: 3000, dim: 32, queries: 30, seed: 11 });
/** "Embeds" passage text "vec i" as stored vector i and query text "query j" as query vector j. */
const lookup: Embedder = {
  id: 'openai:clustered',
  provider: 'openai',
  model: 'clustered',
  dimension: 32,
  async embed(texts, o) {
    return texts.map((t) => (o.kind === 'query' ? v.query(Number(t.split(' ')[1])) : v.row(Number(t.split(' ')[1]))));
  },
};
async function* passages(): AsyncIterable<Passage> {
  for (let i = 0; i < v.n; i++) yield { id: `p${i}`, text: `vec ${i}`, source: 'clustered' };
}

describe('default ANN index above the threshold', () => {
  it(`builds ${DEFAULT_ANN_TYPE}, records it in the manifest, uses it at query time and agrees with flat search`, async () => {
    const out = await mkdtemp(join(tmpdir(), 'lexcase-ann-default-'));
    dirs.push(out);
    await buildIndex(passages(), { out, corpusName: 'clustered', methods: ['bm25'], workers: 0 });
    await addDenseIndex(out, { embedder: lookup, annThreshold: 1000, batchSize: 1000 });

    const d = (await readManifest(out)).dense as unknown as DenseSection;
    expect(d.rows).toBe(3000);
    expect(d.ann).toMatchObject({ type: DEFAULT_ANN_TYPE, numPartitions: 11, threshold: 1000 });
    const table = await openDenseTable(await connectDense(join(out, 'dense')), 'passages', out);
    expect((await table.listIndices()).map((i) => i.indexType)).toContain(LANCE_INDEX_TYPE[DEFAULT_ANN_TYPE]);

    const ann = await openDenseRetriever(out, { embedder: lookup });
    const exact = await openDenseRetriever(out, { embedder: lookup, exact: true });
    const onlyOneProbe = await openDenseRetriever(out, { embedder: lookup, nprobes: 1 });
    let agree = 0;
    let agreeOne = 0;
    for (let q = 0; q < v.nQueries; q++) {
      const truth = exactTopK(v, v.query(q), 10).map((i) => `p${i}`);
      expect((await exact.search(`query ${q}`, { k: 10 })).map((h) => h.id)).toEqual(truth);
      agree += (await ann.search(`query ${q}`, { k: 10 })).filter((h) => truth.includes(h.id)).length;
      agreeOne += (await onlyOneProbe.search(`query ${q}`, { k: 10 })).filter((h) => truth.includes(h.id)).length;
    }
    expect(agree / (10 * v.nQueries)).toBeGreaterThanOrEqual(0.95);
    // The index is really in the query path: probing a single partition loses neighbours.
    expect(agreeOne).toBeLessThan(agree);
  });
});
