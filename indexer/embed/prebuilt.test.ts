/**
 * The shipped use-lite vectors of the default corpus: the manifest names the corpus and model they
 * belong to (checked against the bundled data and the installed model files), the files match their
 * checksums, and re-embedding a sample of passages now gives the same vectors within 1e-5.
 */
import { describe, expect, it } from 'vitest';
import { CORPORA, datasetChecksum, loadPassages } from '../../corpora/registry.js';
import { passageEmbedText } from '../dense/add-dense.js';
import { createEmbedder } from './create-embedder.js';
import { prebuiltMismatch, readPrebuiltManifest, readPrebuiltVectors, useLiteModelChecksum } from './prebuilt.js';
import { createRng } from '../../core/rng.js';

describe('prebuilt use-lite vectors of the default corpus', () => {
  it('match the bundled corpus and installed model, and re-embedding a sample reproduces them within 1e-5', { timeout: 120_000 }, async () => {
    const pv = await readPrebuiltVectors('default-use-lite');
    const m = pv.manifest;
    expect(m.corpus).toMatchObject({ name: 'default', passages: CORPORA.default.passages, dataChecksum: await datasetChecksum('default') });
    expect(m.embedder.modelChecksum).toBe(await useLiteModelChecksum());
    expect(m.embedder.spec).toEqual({ provider: 'use-lite', maxWords: 128 });
    expect(pv.ids).toHaveLength(CORPORA.default.passages);

    const passages = new Map<string, string>();
    for await (const p of loadPassages('default')) passages.set(p.id, passageEmbedText(p));
    expect([...passages.keys()]).toEqual(pv.ids);

    // A seeded sample of rows, the first and last included.
    const rng = createRng(16);
    const rows = [0, pv.ids.length - 1, ...Array.from({ length: 6 }, () => rng.int(1, pv.ids.length - 2))];
    const emb = await createEmbedder({ provider: 'use-lite', maxWords: 128, workers: 0 });
    try {
      const fresh = await emb.embed(
        rows.map((i) => passages.get(pv.ids[i])!),
        { kind: 'passage' },
      );
      rows.forEach((r, j) => {
        const stored = pv.row(r);
        expect(stored).toHaveLength(512);
        let maxDiff = 0;
        for (let d = 0; d < 512; d++) maxDiff = Math.max(maxDiff, Math.abs(stored[d] - fresh[j][d]));
        expect(maxDiff).toBeLessThanOrEqual(1e-5);
      });
    } finally {
      await emb.close?.();
    }
  });

  it('are refused for another corpus, another embedder spec, or other model files, saying which', async () => {
    const m = (await readPrebuiltManifest('default-use-lite'))!;
    const spec = { provider: 'use-lite', maxWords: 128 };
    expect(await prebuiltMismatch(m, m.corpus.indexChecksum, spec)).toBeNull();
    expect(await prebuiltMismatch(m, 'f'.repeat(64), spec)).toMatch(/corpus checksum/);
    expect(await prebuiltMismatch(m, m.corpus.indexChecksum, { provider: 'use-lite', maxWords: 256 })).toMatch(/embedder spec/);
    expect(await prebuiltMismatch({ ...m, embedder: { ...m.embedder, modelChecksum: '0'.repeat(64) } }, m.corpus.indexChecksum, spec)).toMatch(
      /model files differ/,
    );
  });
});
