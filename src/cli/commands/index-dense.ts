/**
 * `lexcase index dense <dir> [--embedder …]`: add a dense (LanceDB) index to an existing index dir,
 * or resume one that was interrupted (same embedder and vector settings → continues after the last
 * completed batch; other settings re-embed every passage, add-dense.ts).
 * `--prebuilt`: load the bundled corpus's shipped use-lite vectors instead of embedding (what the
 * demo does; refused, saying why, when they do not match the index: corpus checksum, embedded-text
 * checksum — titles included — embedder spec, model files).
 * `--rebuild`: embed every passage again into a new dense part built beside the old one, which it
 * replaces only once complete (indexer/dense/rebuild-dense.ts): the way past vectors `index dense`
 * refuses to keep or resume (another endpoint or model folder under the same model name), without
 * deleting anything by hand; the old part stays as it was if the rebuild fails or is interrupted.
 * Registered under the `index` command created by index-cmd.ts.
 */
import type { Command } from 'commander';
import { addDenseBuildOptions, denseBuildOptions, type DenseBuildFlags } from '../dense-index-options.js';
import type { AddDenseOptions } from '../../../indexer/dense/add-dense.js';
import type { DenseSection } from '../../../indexer/dense/dense-section.js';
import type { EmbedderSpec } from '../../../indexer/embed/types.js';
import { action, output, type GlobalOpts } from '../action.js';
import { errors } from '../../../core/errors.js';

export function register(program: Command): void {
  const index = program.commands.find((c) => c.name() === 'index') ?? program.command('index').description('build and inspect on-disk indexes');
  addDenseBuildOptions(
    index
      .command('dense')
      .description('add a dense LanceDB index to an existing index dir, or resume an interrupted dense build')
      .argument('<dir>', 'index directory (from `lexcase index build`)')
      .option(
        '--prebuilt',
        'load the shipped use-lite vectors of the bundled corpus (default corpus: seconds instead of minutes of embedding; use-lite: passages cut at 128 words, which the model reads up to its 128-token limit) instead of embedding; refused, saying why, when they do not match the index (its corpus checksum, the checksum of its titles and texts as embedded, the model files)',
      )
      .option(
        '--rebuild',
        'embed every passage again into a new dense part, built beside the current one and swapped in only once complete (the current one is kept if it fails or is interrupted): e.g. after changing the embedding model, endpoint or model folder',
      ),
  ).action(
    action(async (dir: string, flags: DenseBuildFlags & { prebuilt?: boolean; rebuild?: boolean }, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      const [{ whileInterruptible }, { readManifest }, { addDenseIndex }, { loadPrebuiltDense }, { rebuildDenseIndex }] = await Promise.all([
        import('../../../core/interrupt.js'),
        import('../../../indexer/manifest.js'),
        import('../../../indexer/dense/add-dense.js'),
        import('../../../indexer/dense/prebuilt-dense.js'),
        import('../../../indexer/dense/rebuild-dense.js'),
      ]);
      const t0 = performance.now();
      await whileInterruptible(
        flags.rebuild ? 'dense rebuild' : 'dense build',
        {
          note: flags.rebuild ? 'the dense part the index had is kept as it was' : 'rerun the same command to resume',
        },
        async (signal) => {
          if (flags.prebuilt && (flags.embedder !== undefined || flags.model !== undefined || flags.modelDir !== undefined || flags.maxWords !== undefined))
            throw errors.usage('--prebuilt loads use-lite vectors made with fixed settings; it takes no --embedder, --model, --model-dir or --max-words');
          if (flags.prebuilt && flags.rebuild) throw errors.usage('--prebuilt and --rebuild do not go together: --rebuild embeds the passages again');
          let why = '';
          const prebuilt = flags.prebuilt ? await loadPrebuiltDense(dir, (l) => (why = l.trim()), signal) : undefined;
          if (flags.prebuilt && !prebuilt)
            throw errors.usage(
              `no prebuilt vectors match ${dir}${why ? `: ${why}` : ' (they ship for the bundled default corpus only)'}`,
              'build it with `lexcase index build default`, or drop --prebuilt to embed the passages',
            );
          const build = { ...(await keepRecordedSpec(dir, flags, denseBuildOptions(flags))), signal };
          const m = prebuilt ? await readManifest(dir) : flags.rebuild ? await rebuildDenseIndex(dir, build) : await addDenseIndex(dir, build);
          const d = m.dense as unknown as DenseSection;
          const s = (performance.now() - t0) / 1000;
          output(
            g,
            { dir, seconds: s, dense: d, ...(prebuilt ? { prebuilt } : {}) },
            () =>
              `dense index in ${dir}: ${d.rows.toLocaleString('en-US')} vectors, ${d.embedderId} (dim ${d.dimension}), ${d.ann ? `${d.ann.type ?? 'ivf_pq'} ${d.ann.numPartitions} partitions, nprobes ${d.ann.nprobes}` : 'flat search'}${prebuilt ? `, from the prebuilt vectors ${prebuilt}` : ''}, ${s.toFixed(1)} s`,
          );
        },
      );
    }),
  );
}

/**
 * With no flag that sets the vectors (--embedder, --model, --model-dir, --max-words), a dense table
 * the index already has is resumed or kept with the settings it was embedded with (its manifest's
 * spec: the shipped prebuilt vectors are use-lite at 128 words), not the defaults: the defaults
 * would start it over (add-dense.ts re-embeds on other vector settings).
 */
async function keepRecordedSpec(dir: string, flags: DenseBuildFlags, opts: AddDenseOptions): Promise<AddDenseOptions> {
  if (flags.embedder !== undefined || flags.model !== undefined || flags.modelDir !== undefined || flags.maxWords !== undefined) return opts;
  const { readManifest } = await import('../../../indexer/manifest.js');
  const recorded = ((await readManifest(dir)).dense as { spec?: EmbedderSpec } | undefined)?.spec;
  if (!recorded) return opts;
  const given = opts.embedder as EmbedderSpec | undefined;
  return { ...opts, embedder: { ...recorded, ...(given?.timeoutMs !== undefined ? { timeoutMs: given.timeoutMs } : {}) } };
}
