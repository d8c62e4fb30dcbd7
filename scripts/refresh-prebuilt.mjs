#!/usr/bin/env node
/**
 * Brings the shipped use-lite vectors of the default corpus (corpora/data/prebuilt/default-use-lite)
 * in line with the bundled corpus after a corpus change, without re-embedding what did not change:
 *  1. builds the default corpus's doc store in a temporary dir (for its corpus checksum and order);
 *  2. keeps the stored row of every passage whose id the old vectors have, drops the rows of
 *     passages no longer bundled, and embeds only new ids (use-lite, first 128 words, as the demo);
 *  3. re-embeds a seeded sample of kept rows and refuses to write if any differs by more than 1e-5
 *     (a kept id whose text changed would show here; indexer/embed/prebuilt.test.ts checks again);
 *  4. writes ids, vectors and manifest.json (checksums of the new corpus and files) in doc-store order,
 *     with the embedded-text checksum (ids and title + text, indexer/dense/embedded-text.ts) and the
 *     count of passages longer than use-lite's 128 tokens, counted on those texts (loading the
 *     vectors then tokenizes nothing). Where the ids are unchanged and the old manifest records an
 *     embedded-text checksum, a different one (a changed title or text) is refused: rebuild all.
 *
 *   npm run build && node scripts/refresh-prebuilt.mjs      # rewrites corpora/data/prebuilt/default-use-lite
 *
 * A model change needs the full rebuild of docs/dense.md ("To rebuild the shipped vectors").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (p) => import(join(root, 'dist', p));
const [
  { indexCorpus },
  { openDocStore },
  { readManifest },
  { datasetChecksum },
  prebuilt,
  { passageEmbedText, EmbeddedTextHash },
  { modelMaxTokens, overModelMaxTokens },
  { createEmbedder },
  { PREBUILT_DENSE_SPEC },
  { createRng },
] = await Promise.all([
  dist('indexer/index-corpus.js'),
  dist('indexer/docstore.js'),
  dist('indexer/manifest.js'),
  dist('corpora/registry.js'),
  dist('indexer/embed/prebuilt.js'),
  dist('indexer/dense/embedded-text.js'),
  dist('indexer/embed/model-token-limit.js'),
  dist('indexer/embed/create-embedder.js'),
  dist('indexer/dense/prebuilt-spec.js'),
  dist('core/rng.js'),
]);

const NAME = 'default-use-lite';
const old = await prebuilt.readPrebuiltVectors(NAME);
const oldRow = new Map(old.ids.map((id, i) => [id, i]));
const work = mkdtempSync(join(tmpdir(), 'lexcase-prebuilt-'));
try {
  const dir = join(work, 'index');
  await indexCorpus('default', { out: dir, methods: ['bm25'] });
  const manifest = await readManifest(dir);
  const store = await openDocStore(dir);
  const passages = [];
  try {
    for await (const p of store.entries()) passages.push({ id: p.id, text: passageEmbedText(p) });
  } finally {
    await store.close();
  }
  const embedder = await createEmbedder({ ...PREBUILT_DENSE_SPEC, workers: 0 });
  try {
    const fresh = passages.filter((p) => !oldRow.has(p.id));
    const freshVectors = fresh.length
      ? await embedder.embed(
          fresh.map((p) => p.text),
          { kind: 'passage' },
        )
      : [];
    const byId = new Map(fresh.map((p, i) => [p.id, freshVectors[i]]));
    const kept = passages.filter((p) => oldRow.has(p.id));
    const rng = createRng(16);
    const sample = rng.sample(kept, Math.min(8, kept.length));
    const again = await embedder.embed(
      sample.map((p) => p.text),
      { kind: 'passage' },
    );
    sample.forEach((p, j) => {
      const stored = old.row(oldRow.get(p.id));
      const diff = Math.max(...Array.from(stored, (x, d) => Math.abs(x - again[j][d])));
      if (diff > 1e-5)
        throw new Error(`${p.id}: the stored vector differs from a fresh embedding by ${diff} (text or model changed): rebuild all vectors instead`);
    });
    const vectors = passages.map((p) => (oldRow.has(p.id) ? Float32Array.from(old.row(oldRow.get(p.id))) : byId.get(p.id)));
    const dropped = old.ids.filter((id) => !passages.some((p) => p.id === id));
    const m = old.manifest;
    const hash = new EmbeddedTextHash();
    for (const p of passages) hash.add(p.id, p.text);
    const embeddedTextChecksum = hash.digest();
    const sameIds = !fresh.length && !dropped.length;
    if (sameIds && m.corpus.embeddedTextChecksum && m.corpus.embeddedTextChecksum !== embeddedTextChecksum)
      throw new Error(
        `the passages' embedded text (title + text) has checksum ${embeddedTextChecksum.slice(0, 12)}…, the vectors were embedded from ${m.corpus.embeddedTextChecksum.slice(0, 12)}…: a title or text changed; rebuild all vectors instead`,
      );
    const clipped = overModelMaxTokens(PREBUILT_DENSE_SPEC, embedder.provider, embedder.model);
    const over = passages.filter((p) => clipped(p.text)).length;
    const written = await prebuilt.writePrebuiltVectors(
      join(prebuilt.PREBUILT_DIR, NAME),
      {
        corpus: {
          name: 'default',
          passages: passages.length,
          indexChecksum: manifest.corpus.checksum,
          dataChecksum: await datasetChecksum('default'),
          embeddedTextChecksum,
        },
        embedder: m.embedder,
        dimension: m.dimension,
        createdWith: sameIds
          ? m.createdWith
          : `${m.createdWith.split('; refreshed by')[0]}; refreshed by scripts/refresh-prebuilt.mjs after a corpus change (${kept.length} rows kept, ${fresh.length} embedded, ${dropped.length} dropped)`,
        modelMaxTokens: modelMaxTokens(embedder.provider),
        passagesOverModelMaxTokens: over,
      },
      passages.map((p) => p.id),
      vectors,
    );
    console.log(
      `${NAME}: ${written.rows} rows (${kept.length} kept, ${fresh.length} embedded, ${dropped.length} dropped${dropped.length ? `: ${dropped.join(', ')}` : ''}); ${sample.length} kept rows re-embedded within 1e-5`,
    );
  } finally {
    await embedder.close?.();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
