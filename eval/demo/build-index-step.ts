/** Demo step 1: build the bundled demo index in <dir>/index unless a matching one is already there. */
import { readManifest, type Manifest } from '../../indexer/manifest.js';
import { indexCorpus, knownPassageCount } from '../../indexer/index-corpus.js';
import { bundledIndexStaleReason } from '../../retrieval/default-index-stale.js';
import { createProgress } from '../../core/progress.js';
import type { DemoContext, DemoStep } from './types.js';

/**
 * Why an existing index cannot be reused, or null when it can: it must hold what a fresh demo build
 * would — the same corpus (name, passage count and, where known, checksum), built with the default
 * analyzer (the demo's numbers are the default analyzer's), with the methods the demo evaluates, by
 * this lexcase version and index format. report.json's `index.builtBy` names the lexcase that built it.
 */
export function staleReason(m: Manifest, ctx: Pick<DemoContext, 'corpus' | 'indexMethods'>): Promise<string | null> {
  return bundledIndexStaleReason(m, ctx.corpus, ctx.indexMethods, "the demo's");
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
    ctx.data.index = {
      dir: ctx.indexDir,
      built,
      seconds,
      corpus: m.corpus,
      methods: m.methods,
      analyzer: m.analyzer,
      builtBy: { lexcaseVersion: m.lexcaseVersion, format: m.version },
    };
  },
};
