/**
 * `lexcase index dense <dir> [--embedder …]`: add a dense (LanceDB) index to an existing index dir,
 * or resume one that was interrupted (same embedder → continues after the last completed batch).
 * Registered under the `index` command created by index-cmd.ts.
 */
import type { Command } from 'commander';
import { addDenseIndex } from '../../../indexer/dense/add-dense.js';
import { addDenseBuildOptions, denseBuildOptions, type DenseBuildFlags } from '../dense-index-options.js';
import type { DenseSection } from '../../../indexer/dense/dense-section.js';
import { action, output, type GlobalOpts } from '../action.js';
import { abortOnSignals } from '../../../core/interrupt.js';

export function register(program: Command): void {
  const index = program.commands.find((c) => c.name() === 'index') ?? program.command('index').description('build and inspect on-disk indexes');
  addDenseBuildOptions(
    index
      .command('dense')
      .description('add a dense LanceDB index to an existing index dir, or resume an interrupted dense build')
      .argument('<dir>', 'index directory (from `lexcase index build`)'),
  ).action(
    action(async (dir: string, flags: DenseBuildFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      const interrupt = abortOnSignals('dense build', { note: 'rerun the same command to resume' });
      const t0 = performance.now();
      try {
        const m = await addDenseIndex(dir, { ...denseBuildOptions(flags), signal: interrupt.signal });
        const d = m.dense as unknown as DenseSection;
        const s = (performance.now() - t0) / 1000;
        output(g, { dir, seconds: s, dense: d }, () =>
          `dense index in ${dir}: ${d.rows.toLocaleString('en-US')} vectors, ${d.embedderId} (dim ${d.dimension}), ${d.ann ? `${d.ann.type ?? 'ivf_pq'} ${d.ann.numPartitions} partitions, nprobes ${d.ann.nprobes}` : 'flat search'}, ${s.toFixed(1)} s`,
        );
      } finally {
        interrupt.dispose();
      }
    }),
  );
}
