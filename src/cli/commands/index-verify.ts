/**
 * `lexcase index verify DIR`: check an index dir's integrity: the manifest's seal, then the size and
 * sha256 of every data file against the manifest, and a dense index's LanceDB table against the
 * manifest (owner, rows, ids, and the size and sha256 of each file of its build: indexer/dense/verify-dense.ts), and a lancedb-fts table against the doc
 * store and the manifest (every row, its full-text index, the recorded checksum:
 * indexer/verify-lancedb-fts.ts). Lists every damaged file or part and exits 1 when any is; the
 * success line says what was checked.
 * A clean result is recorded (outside the index dir) so later opens need not hash the same files
 * again (indexer/verify-record.ts). Registered under the `index` command created by index-cmd.ts (`index info` runs the same check).
 */
import type { Command } from 'commander';
import type { VerifyReport } from '../../../indexer/integrity.js';
import type { LanceFtsChecked } from '../../../indexer/verify-lancedb-fts.js';
import { errors, isLexcaseError } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { action, output, type GlobalOpts } from '../action.js';
import { byteSize } from '../byte-size.js';

/**
 * What `index verify` checked: the data files, the dense table's files (hashed, or why not: an older
 * manifest records none) and the lancedb-fts table, each when the index has one.
 */
export type IndexVerifyReport = VerifyReport & {
  lancedbFts?: LanceFtsChecked;
  dense?: { covered: true; files: number; bytes: number } | { covered: false; message: string };
};

/**
 * Verify `dir`; throws INDEX_CORRUPT naming the first damaged file or part, after logging the others
 * (each once). `onDamaged` sees the whole report first (`--json` prints it).
 */
export async function verifyIndexDir(dir: string, onDamaged?: (r: IndexVerifyReport) => void): Promise<IndexVerifyReport> {
  const [{ readManifest }, { verifyAndRecord }] = await Promise.all([import('../../../indexer/manifest.js'), import('../../../indexer/integrity.js')]);
  const m = await readManifest(dir);
  const r: IndexVerifyReport = await verifyAndRecord(dir, m);
  // The dense vectors live in LanceDB (maybe outside the dir): their table must still be this index's.
  if (m.methods.includes('dense') && m.dense) {
    const { verifyDenseTable } = await import('../../../indexer/dense/verify-dense.js');
    const dense = await verifyDenseTable(dir, m);
    r.problems.push(...dense.problems);
    if (dense.files) r.dense = { covered: true, ...dense.files };
    else if (dense.uncovered) r.dense = { covered: false, message: dense.uncovered };
  }
  // The lancedb-fts table's files are LanceDB's (no sha256 in the manifest): its rows against the doc store.
  if (m.methods.includes('lancedb-fts')) {
    const { verifyLanceFtsTable } = await import('../../../indexer/verify-lancedb-fts.js');
    const fts = await verifyLanceFtsTable(dir, m);
    r.problems.push(...fts.problems);
    if (fts.checked) r.lancedbFts = fts.checked;
  }
  if (r.problems.length) {
    onDamaged?.(r);
    const [first, ...others] = r.problems;
    for (const p of others) log.error(`damaged: ${p.file}: ${p.message}`);
    const more = others.length ? ` (and ${others.length} more damaged file${others.length === 1 ? ' or part' : 's or parts'}, named above)` : '';
    throw errors.indexCorrupt(first.file, first.message + more, ...(first.hint ? [first.hint] : []));
  }
  return r;
}

/**
 * `--json` of a damaged index (`index verify`, `index info`): every damaged file or part, or the one a
 * manifest that cannot be read names (INDEX_CORRUPT's file), or, where there is no index to verify (INDEX_MISSING: no
 * manifest.json), the error's code and message, so a script reads why as well as the exit status.
 */
export function damagedJson(dir: string, e: unknown, report?: IndexVerifyReport): Record<string, unknown> | undefined {
  if (report?.problems.length) return { dir, ok: false, ...verifyJson(report), damaged: report.problems.map((p) => ({ file: p.file, message: p.message })) };
  if (isLexcaseError(e) && e.code === 'INDEX_CORRUPT') {
    const file = String(e.details.file ?? dir);
    const message = e.message.split('\n')[0];
    const prefix = `${file}: index file is corrupt: `; // errors.indexCorrupt's form: the file is a field of its own here
    return { dir, ok: false, damaged: [{ file, message: message.startsWith(prefix) ? message.slice(prefix.length) : message }] };
  }
  // no index to verify (its manifest.json deleted, a wrong path): still one object, so a script reads why
  if (isLexcaseError(e)) return { dir, ok: false, error: { code: e.code, message: e.message.split('\n')[0] } };
  return undefined;
}

export const verifySummary = (r: IndexVerifyReport): string =>
  `integrity ok: manifest seal and sha256 of ${r.files} files (${byteSize(r.bytes)}) verified in ${r.ms.toFixed(0)} ms${r.dense ? `; ${denseSummary(r.dense)}` : ''}${r.lancedbFts ? `; ${ftsSummary(r.lancedbFts)}` : ''}`;

const denseSummary = (d: NonNullable<IndexVerifyReport['dense']>): string =>
  d.covered ? `dense table: sha256 of its ${d.files} files (${byteSize(d.bytes)}) as the manifest records` : d.message;

const ftsSummary = (c: LanceFtsChecked): string =>
  `lancedb-fts table: its ${c.rows.toLocaleString('en-US')} rows are the doc store's ids, titles and texts (sha256 ${c.textChecksum.slice(0, 12)}…, ${c.recorded ? 'as the manifest records' : 'not recorded in the manifest'}), all in its full-text index`;

/** The --json fields of a clean verify (shared by `index verify` and `index info`). */
export const verifyJson = (r: IndexVerifyReport) => ({
  files: r.files,
  bytes: r.bytes,
  ms: Math.round(r.ms),
  ...(r.dense ? { dense: { ...r.dense } } : {}),
  ...(r.lancedbFts ? { lancedbFts: { ...r.lancedbFts } } : {}),
});

export function register(program: Command): void {
  const index = program.commands.find((c) => c.name() === 'index') ?? program.command('index').description('build and inspect on-disk indexes');
  index
    .command('verify')
    .description(
      "check an index dir: the manifest's seal, the size and sha256 of every data file, a dense or lancedb-fts table's rows; exit 1 naming each damaged file or part",
    )
    .argument('<dir>', 'index directory')
    .action(
      action(async (dir: string, _flags: unknown, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        let damaged: IndexVerifyReport | undefined;
        try {
          const r = await verifyIndexDir(dir, (x) => (damaged = x));
          output(g, { dir, ok: true, ...verifyJson(r) }, () => `index ${dir}: ${verifySummary(r)}`);
        } catch (e) {
          const json = g.json ? damagedJson(dir, e, damaged) : undefined;
          if (json) process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
          throw e;
        }
      }),
    );
}
