/**
 * Demo step (H4): make sure the demo index has a dense index built with the bundled, offline
 * `use-lite` embedder (Universal Sentence Encoder lite, 512-dim), then add `dense` and `hybrid`
 * (RRF of bm25 + dense) to the retrieval table. Runs after build-index, before retrieval-eval.
 *
 * The dense index is added to the existing index dir with addDenseIndex, so it is built once and
 * reused, and an interrupted embedding run resumes where it stopped. USE lite costs ~60–90 ms per
 * passage per core, so the first run embeds the 6,151 default passages (truncated to their first
 * 128 words) in several minutes on 2 cores; set LEXCASE_DEMO_DENSE=0 to skip the dense rows.
 */
import { addDenseIndex } from '../../indexer/dense/add-dense.js';
import type { DenseSection } from '../../indexer/dense/dense-section.js';
import { readManifest } from '../../indexer/manifest.js';
import { recordableSpec } from '../../retrieval/embed/create-embedder.js';
import type { EmbedderSpec } from '../../retrieval/embed/types.js';
import type { DemoStep } from './types.js';

export const DEMO_DENSE_SPEC: EmbedderSpec = { provider: 'use-lite', maxWords: 128 };

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
    if (!ready) {
      ctx.say(
        spec === DEMO_DENSE_SPEC
          ? `embedding ${m.corpus.passages.toLocaleString('en-US')} passages with use-lite (bundled Universal Sentence Encoder lite; first 128 words each) — a few minutes on 2 cores, once; an interrupted run resumes…`
          : `embedding ${m.corpus.passages.toLocaleString('en-US')} passages with ${spec.provider}…`,
      );
      // progress: addDenseIndex's own (a bar on a TTY, plain lines otherwise)
      const t0 = performance.now();
      await addDenseIndex(ctx.indexDir, { ...ctx.denseOptions, embedder: spec, signal: ctx.signal, batchSize: 64 });
      seconds = (performance.now() - t0) / 1000;
      ctx.say(`  dense index built in ${seconds.toFixed(1)} s (${(m.corpus.passages / seconds).toFixed(1)} passages/s)`);
    } else ctx.say(`reusing the dense (${d!.embedderId}) index`);
    for (const x of ['dense', 'hybrid']) if (!ctx.evalMethods.includes(x)) ctx.evalMethods.push(x);
    const after = (await readManifest(ctx.indexDir)).dense as unknown as DenseSection;
    ctx.data.dense = { embedder: after.embedderId, dimension: after.dimension, rows: after.rows, maxWords: spec.maxWords ?? null, ann: after.ann, built: !ready, seconds, hybrid: 'rrf(bm25, dense), k = 60' };
  },
};
