/**
 * `lexcase index lancedb-fts <dir> [--rebuild]`: add LanceDB's own full-text index (the
 * `lancedb-fts` search method) to an existing index dir. Searching never builds it; this command
 * (or `index build --methods bm25,qld,lancedb-fts`) is the one place it is written.
 * Registered under the `index` command created by index-cmd.ts.
 */
import type { Command } from 'commander';
import { action, output, type GlobalOpts } from '../action.js';

export function register(program: Command): void {
  const index = program.commands.find((c) => c.name() === 'index') ?? program.command('index').description('build and inspect on-disk indexes');
  index
    .command('lancedb-fts')
    .description("add LanceDB's full-text index (search method lancedb-fts) to an existing index dir")
    .argument('<dir>', 'index directory (from `lexcase index build`)')
    .option('--rebuild', 'rebuild it even if the index dir has one')
    .action(
      action(async (dir: string, flags: { rebuild?: boolean }, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        const t0 = performance.now();
        const { readManifest } = await import('../../../indexer/manifest.js');
        await readManifest(dir); // INDEX_MISSING before LanceDB creates anything
        const { ensureLanceFts } = await import('../../../retrieval/lancedb-fts.js');
        await ensureLanceFts(dir, { rebuild: flags.rebuild });
        const m = await readManifest(dir);
        const s = (performance.now() - t0) / 1000;
        output(
          g,
          { dir, seconds: s, methods: m.methods },
          () => `lancedb-fts index in ${dir} (${m.corpus.passages.toLocaleString('en-US')} passages), ${s.toFixed(1)} s; methods ${m.methods.join(', ')}`,
        );
      }),
    );
}
