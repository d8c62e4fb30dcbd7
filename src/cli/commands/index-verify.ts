/**
 * `lexcase index verify DIR`: check an index dir's integrity: the manifest's seal, then the size and
 * sha256 of every data file against the manifest, and a dense index's LanceDB table against the
 * manifest (owner, rows, ids: indexer/dense/verify-dense.ts). Lists every damaged file and exits 1 when any is.
 * A clean result is recorded (outside the index dir) so later opens need not hash the same files
 * again (indexer/verify-record.ts). Registered under the `index` command created by index-cmd.ts (`index info` runs the same check).
 */
import type { Command } from 'commander';
import type { VerifyReport } from '../../../indexer/integrity.js';
import { log } from '../../../core/log.js';
import { action, output, type GlobalOpts } from '../action.js';
import { byteSize } from '../byte-size.js';

/** Verify `dir`; throws INDEX_CORRUPT (naming the first damaged file) after logging all of them. */
export async function verifyIndexDir(dir: string): Promise<VerifyReport> {
  const [{ readManifest }, { reportError, verifyAndRecord }] = await Promise.all([
    import('../../../indexer/manifest.js'),
    import('../../../indexer/integrity.js'),
  ]);
  const m = await readManifest(dir);
  const r = await verifyAndRecord(dir, m);
  // The dense vectors live in LanceDB (maybe outside the dir): their table must still be this index's.
  if (m.methods.includes('dense') && m.dense) {
    const { verifyDenseTable } = await import('../../../indexer/dense/verify-dense.js');
    r.problems.push(...(await verifyDenseTable(dir, m)));
  }
  if (r.problems.length) {
    for (const p of r.problems) log.error(`damaged: ${p.file}: ${p.message}`);
    throw reportError(r)!;
  }
  return r;
}

export const verifySummary = (r: VerifyReport): string =>
  `integrity ok: manifest seal and sha256 of ${r.files} files (${byteSize(r.bytes)}) verified in ${r.ms.toFixed(0)} ms`;

export function register(program: Command): void {
  const index = program.commands.find((c) => c.name() === 'index') ?? program.command('index').description('build and inspect on-disk indexes');
  index
    .command('verify')
    .description("check an index dir: the manifest's seal and the size and sha256 of every data file; exit 1 naming each damaged file")
    .argument('<dir>', 'index directory')
    .action(
      action(async (dir: string, _flags: unknown, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        const r = await verifyIndexDir(dir);
        output(g, { dir, ok: true, files: r.files, bytes: r.bytes, ms: Math.round(r.ms) }, () => `index ${dir}: ${verifySummary(r)}`);
      }),
    );
}
