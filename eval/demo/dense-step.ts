/**
 * Demo step: make sure the demo index has a dense index built with the bundled, offline
 * `use-lite` embedder (Universal Sentence Encoder lite, 512-dim), then add `dense` and `hybrid`
 * (RRF of bm25 + dense) to the retrieval table. Runs after build-index, before retrieval-eval.
 *
 * The dense index is added to the existing index dir with addDenseIndex, so it is built once and
 * reused. For the default corpus the passage vectors ship with the package (corpora/data/prebuilt/
 * default-use-lite, indexer/embed/prebuilt.ts): when their manifest matches the index's corpus
 * checksum, the embedded-text checksum (titles included), the embedder spec and the installed model
 * files, they are loaded in seconds; otherwise
 * (another corpus, another model version) every passage is embedded — USE lite costs ~60–90 ms per
 * passage per core, several minutes on 2 cores — and an interrupted run resumes where it stopped.
 * Queries are always embedded by the real model. LEXCASE_DEMO_DENSE=0 skips the dense rows.
 */
import { addDenseIndex } from '../../indexer/dense/add-dense.js';
import type { DenseSection } from '../../indexer/dense/dense-section.js';
import { readManifest } from '../../indexer/manifest.js';
import { recordableSpec } from '../../indexer/embed/create-embedder.js';
import { hybridDefaultsNote } from '../../retrieval/hybrid.js';
import { loadPrebuiltDense, prebuiltEmbedder, PREBUILT_DENSE_SPEC } from '../../indexer/dense/prebuilt-dense.js';
import type { EmbedderSpec } from '../../indexer/embed/types.js';
import type { DemoStep } from './types.js';

export const DEMO_DENSE_SPEC: EmbedderSpec = PREBUILT_DENSE_SPEC;
const HYBRID_NOTE = hybridDefaultsNote();
export { loadPrebuiltDense };

export const denseStep: DemoStep = {
  name: 'dense',
  async run(ctx) {
    if (process.env.LEXCASE_DEMO_DENSE === '0') {
      ctx.say('skipping dense/hybrid rows (LEXCASE_DEMO_DENSE=0)');
      return;
    }
    const m = await readManifest(ctx.indexDir);
    const d = m.dense as unknown as DenseSection | undefined;
    // ctx.denseOptions may name another embedder (tests use the tiny fixture model).
    const spec = (ctx.denseOptions?.embedder as EmbedderSpec | undefined) ?? DEMO_DENSE_SPEC;
    const ready = m.methods.includes('dense') && !!d && d.rows === m.corpus.passages && JSON.stringify(d.spec) === JSON.stringify(recordableSpec(spec));
    let seconds = 0;
    let source = 'embedded';
    if (!ready && spec === DEMO_DENSE_SPEC) {
      const t0 = performance.now();
      const prebuilt = await prebuiltEmbedder(ctx.indexDir, m.corpus.name, m.corpus.checksum, recordableSpec(spec), ctx.say);
      if (prebuilt) {
        await addDenseIndex(ctx.indexDir, {
          ...ctx.denseOptions,
          embedder: prebuilt.embedder,
          spec,
          signal: ctx.signal,
          batchSize: 2048,
          recordedTexts: prebuilt.recordedTexts,
        });
        seconds = (performance.now() - t0) / 1000;
        source = `prebuilt (${prebuilt.name})`;
        ctx.say(`  dense index loaded from the prebuilt use-lite vectors (${prebuilt.name}) in ${seconds.toFixed(1)} s`);
      }
    }
    const loaded = source !== 'embedded';
    if (!ready && !loaded) {
      ctx.say(
        spec === DEMO_DENSE_SPEC
          ? `embedding ${m.corpus.passages.toLocaleString('en-US')} passages with use-lite (bundled Universal Sentence Encoder lite; each passage's first 128 words, read up to the model's 128-token limit) — a few minutes on 2 cores, once; an interrupted run resumes…`
          : `embedding ${m.corpus.passages.toLocaleString('en-US')} passages with ${spec.provider}…`,
      );
      // progress: addDenseIndex's own (a bar on a TTY, plain lines otherwise)
      const t0 = performance.now();
      await addDenseIndex(ctx.indexDir, { ...ctx.denseOptions, embedder: spec, signal: ctx.signal, batchSize: 64 });
      seconds = (performance.now() - t0) / 1000;
      ctx.say(`  dense index built in ${seconds.toFixed(1)} s (${(m.corpus.passages / seconds).toFixed(1)} passages/s)`);
    } else if (ready) ctx.say(`reusing the dense (${d!.embedderId}) index`);
    for (const x of ['dense', 'hybrid']) if (!ctx.evalMethods.includes(x)) ctx.evalMethods.push(x);
    const after = (await readManifest(ctx.indexDir)).dense as unknown as DenseSection;
    ctx.data.dense = {
      embedder: after.embedderId,
      dimension: after.dimension,
      rows: after.rows,
      maxWords: spec.maxWords ?? null,
      ann: after.ann,
      built: !ready,
      source: ready ? 'reused' : source,
      seconds,
      hybrid: HYBRID_NOTE,
    };
  },
};
