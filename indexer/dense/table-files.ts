/**
 * The files of an index's dense LanceDB table (`<uri>/<table>.lance/`, local URIs only), recorded in
 * the manifest's dense section at the end of its build (`files`: each file's path inside the table
 * dir, its size and sha256) and checked by `lexcase index verify` / `index info`: a vector's bytes
 * changed in a `.lance` data file keep the table's owner, row count and ids (verify-dense.ts reads
 * those), so without the digests verify said OK while dense search ranked from the damaged vectors.
 * Files LanceDB adds later are not checked (no lexcase command writes the table after its build);
 * a recorded file missing, resized or rewritten is named. A table in object storage (s3://, …) is
 * not hashed; a manifest of a lexcase before this records no `files`.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { checkFileDigests, sha256File, type FileDigests, type VerifyProblem } from '../integrity.js';
import { isRemoteUri, type DenseTableFile } from './dense-section.js';

/** Where LanceDB keeps table `table` of the database at the local URI `uri` (resolveDenseUri's). */
export const denseTableDir = (uri: string, table: string): string => join(uri, `${table}.lance`);

/** The recorded files of a table as the digests integrity.ts checks (sha256 and size by path inside the table dir). */
export function denseFileDigests(recorded: Record<string, DenseTableFile>): FileDigests {
  const checksums: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  for (const [rel, f] of Object.entries(recorded)) {
    checksums[rel] = f.sha256;
    sizes[rel] = f.size;
  }
  return { checksums, sizes };
}

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(root, { withFileTypes: true })) {
    const p = join(root, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

/** Every file of the table now, by its path inside the table dir ('/'-separated, sorted); undefined for object storage. */
export async function recordDenseTableFiles(uri: string, table: string): Promise<Record<string, DenseTableFile> | undefined> {
  if (isRemoteUri(uri)) return undefined;
  const root = denseTableDir(uri, table);
  const files = (await filesUnder(root)).map((f) => relative(root, f).split(sep).join('/')).sort();
  const out: Record<string, DenseTableFile> = {};
  for (const rel of files) {
    const file = join(root, rel);
    out[rel] = { size: (await stat(file)).size, sha256: await sha256File(file) };
  }
  return out;
}

/** What the file check of a dense table found: the files and bytes hashed, and every damaged file. */
export interface DenseFilesChecked {
  files: number;
  bytes: number;
  problems: VerifyProblem[];
}

/** Each recorded file of the table against its size and sha256 (integrity.ts's check); all problems collected, none thrown. */
export async function verifyDenseTableFiles(uri: string, table: string, recorded: Record<string, DenseTableFile>): Promise<DenseFilesChecked> {
  return checkFileDigests(denseTableDir(uri, table), Object.keys(recorded), denseFileDigests(recorded), 'dense table file is missing');
}
