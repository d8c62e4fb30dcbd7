/**
 * `lexcase index lancedb-fts <dir> [--rebuild]`: add LanceDB's own full-text index (the
 * `lancedb-fts` search method) to an existing index dir. Searching never builds it; this command
 * (or `index build --methods bm25,qld,lancedb-fts`) is the one place it is written. It says what it
 * did: built the table, kept the one the index has, or kept one from before its checksum and recorded
 * it (indexer/lancedb-fts-adopt.ts; a table whose rows are not the doc store's stops naming --rebuild).
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
    .option(
      '--rebuild',
      'rebuild it even if the index dir has one (without it: a table from before lexcase recorded what it indexes is compared with the doc store, and its checksum recorded when they match)',
    )
    .action(
      action(async (dir: string, flags: { rebuild?: boolean }, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        const t0 = performance.now();
        const { readManifest } = await import('../../../indexer/manifest.js');
        await readManifest(dir); // INDEX_MISSING before LanceDB creates anything
        const { addLanceFts } = await import('../../../indexer/lancedb-fts-build.js');
        const { outcome } = await addLanceFts(dir, { rebuild: flags.rebuild });
        const m = await readManifest(dir);
        const s = (performance.now() - t0) / 1000;
        const textChecksum = m.lancedbFts?.textChecksum ?? null;
        const passages = `${m.corpus.passages.toLocaleString('en-US')} passages`;
        const sum = `ids, titles and texts sha256 ${textChecksum ? `${textChecksum.slice(0, 12)}…` : 'not recorded'}`;
        output(g, { dir, outcome, textChecksum, seconds: s, methods: m.methods }, () =>
          outcome === 'kept'
            ? `lancedb-fts: ${dir} has it already (${passages}, ${sum}); nothing built (--rebuild builds it again); methods ${m.methods.join(', ')}`
            : outcome === 'recorded'
              ? `lancedb-fts: kept the table ${dir} has (${passages}: its rows are the doc store's) and recorded what it indexes, ${sum}, ${s.toFixed(1)} s; methods ${m.methods.join(', ')}`
              : `lancedb-fts index built in ${dir} (${passages}, ${sum}), ${s.toFixed(1)} s; methods ${m.methods.join(', ')}`,
        );
      }),
    );
}
