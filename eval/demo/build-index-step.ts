/** Demo step 1: build the bundled demo index in <dir>/index unless a matching one is already there. */
import { readManifest, type Manifest } from '../../indexer/manifest.js';
import { indexCorpus, knownPassageCount } from '../../indexer/index-corpus.js';
import { ANALYZER_KEYS, resolveAnalyzerConfig } from '../../indexer/analyzer-config.js';
import { prebuiltVectorsName, readPrebuiltManifest } from '../../indexer/embed/prebuilt.js';
import { datasetChecksum, isBundledCorpus } from '../../corpora/registry.js';
import { createProgress } from '../../core/progress.js';
import type { DemoContext, DemoStep } from './types.js';

/**
 * The corpus checksum a fresh build of the bundled `corpus` records, where lexcase knows it: the one
 * its shipped prebuilt vectors were made for, when they were made from the bundled data as it is
 * now (same data checksum); else undefined (not checked).
 */
async function bundledCorpusChecksum(corpus: string): Promise<string | undefined> {
  if (!isBundledCorpus(corpus)) return undefined;
  const p = await readPrebuiltManifest(prebuiltVectorsName(corpus));
  if (!p || p.corpus.name !== corpus || p.corpus.dataChecksum !== (await datasetChecksum(corpus))) return undefined;
  return p.corpus.indexChecksum;
}

/**
 * Why an existing index cannot be reused, or null when it can: it must hold what a fresh demo build
 * would — the same corpus (name, passage count and, where known, checksum), built with the default
 * analyzer (the demo's numbers are the default analyzer's), with the methods the demo evaluates.
 */
export async function staleReason(m: Manifest, ctx: Pick<DemoContext, 'corpus' | 'indexMethods'>): Promise<string | null> {
  if (m.corpus.name !== ctx.corpus) return `it indexes corpus "${m.corpus.name}", not "${ctx.corpus}"`;
  const expected = knownPassageCount(ctx.corpus);
  if (expected !== undefined && m.corpus.passages !== expected) return `it has ${m.corpus.passages} passages, expected ${expected}`;
  const analyzer = resolveAnalyzerConfig();
  const differ = ANALYZER_KEYS.filter((k) => m.analyzer[k] !== analyzer[k]);
  if (differ.length)
    return `it was built with analyzer ${differ.map((k) => `${k}=${m.analyzer[k] ?? '(none)'}`).join(', ')}, the demo's is ${differ.map((k) => `${k}=${analyzer[k] ?? '(none)'}`).join(', ')}`;
  const checksum = await bundledCorpusChecksum(ctx.corpus);
  if (checksum !== undefined && m.corpus.checksum !== checksum)
    return `its corpus checksum ${m.corpus.checksum.slice(0, 12)}… is not that of the bundled ${ctx.corpus} corpus (${checksum.slice(0, 12)}…)`;
  const missing = ctx.indexMethods.filter((x) => !m.methods.includes(x) && !(x === 'dense' && m.dense));
  if (missing.length) return `it lacks method(s) ${missing.join(', ')}`;
  return null;
}

export const buildIndexStep: DemoStep = {
  name: 'build-index',
  async run(ctx) {
    let reason: string | null = 'none exists yet';
    if (!ctx.rebuild) {
      try {
        reason = await staleReason(await readManifest(ctx.indexDir), ctx);
      } catch (e) {
        reason = (e as Error).message.split('\n')[0];
      }
    } else reason = '--rebuild';
    let built = false;
    let seconds = 0;
    if (reason) {
      ctx.say(`building the ${ctx.corpus} index in ${ctx.indexDir} (${reason})…`);
      const total = knownPassageCount(ctx.corpus) ?? 0;
      const bar = createProgress(`index ${ctx.corpus}`, { unit: 'passages' });
      if (total) bar.start(total);
      const t0 = performance.now();
      try {
        await indexCorpus(ctx.corpus, {
          out: ctx.indexDir,
          methods: ctx.indexMethods,
          signal: ctx.signal,
          dense: ctx.indexMethods.includes('dense') ? ctx.denseOptions : undefined,
          onProgress: (n) => total && bar.update(n),
        });
      } finally {
        bar.stop();
      }
      seconds = (performance.now() - t0) / 1000;
      built = true;
      ctx.say(`  built in ${seconds.toFixed(1)} s`);
    } else ctx.say(`reusing the index in ${ctx.indexDir}`);
    const m = await readManifest(ctx.indexDir);
    ctx.data.index = { dir: ctx.indexDir, built, seconds, corpus: m.corpus, methods: m.methods, analyzer: m.analyzer };
  },
};
