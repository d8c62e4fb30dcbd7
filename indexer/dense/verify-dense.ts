/**
 * `lexcase index verify` for the dense part: the LanceDB table the manifest records must be there,
 * belong to this index (owner in its schema metadata), have the recorded row count, hold exactly
 * the recorded passage ids (their digest; every id is read), and — where the manifest records them
 * (`files`, table-files.ts) — have each file of its build with its size and sha256: a vector changed
 * in a data file leaves the owner, rows and ids as they were. Problems are returned, none thrown.
 */
import type { Manifest } from '../manifest.js';
import type { VerifyProblem } from '../integrity.js';
import { DEFAULT_DENSE_TABLE, DEFAULT_DENSE_URI, denseIdsDigest, denseSectionOf, isRemoteUri, resolveDenseUri } from './dense-section.js';
import { checkDenseTable, connectDense, existingIds, idsMismatch, tryOpenTable } from './lance-table.js';
import { verifyDenseTableFiles } from './table-files.js';

/** What the dense check found: its problems, and what it hashed of the table's files or why it hashed none. */
export interface DenseVerified {
  problems: VerifyProblem[];
  /** The table's recorded files hashed (files, bytes), when the manifest records them. */
  files?: { files: number; bytes: number };
  /** Why the table's files were not hashed (an older manifest, object storage); absent when they were. */
  uncovered?: string;
}

/** Said by `index verify` / `index info` of an index whose manifest records no file of its dense table. */
export const DENSE_NOT_COVERED = "dense table not covered by this index's manifest (built by an older lexcase)";

export async function verifyDenseTable(dir: string, m: Manifest): Promise<DenseVerified> {
  const section = denseSectionOf(m);
  if (!section || !m.methods.includes('dense')) return { problems: [] };
  const uri = resolveDenseUri(dir, section.uri);
  const file = `${uri} (dense table "${section.table}")`;
  const problems: VerifyProblem[] = [];
  try {
    const t = await tryOpenTable(await connectDense(uri), section.table);
    if (!t) return { problems: [{ file, message: 'the table is missing' }] };
    await checkDenseTable(t, section, uri, dir);
    const bad = idsMismatch(denseIdsDigest(await existingIds(t)), section.ids);
    if (bad) problems.push({ file, message: `the table does not hold ${dir}'s vectors: ${bad}` });
  } catch (e) {
    const msg = (e as Error).message;
    const head = `${file}: index file is corrupt: `;
    problems.push({ file, message: msg.startsWith(head) ? msg.slice(head.length) : msg });
  }
  if (isRemoteUri(uri)) return { problems, uncovered: `dense table in object storage (${uri}): its files are not hashed` };
  const own = section.uri === DEFAULT_DENSE_URI && section.table === DEFAULT_DENSE_TABLE;
  if (!section.files)
    return { problems, uncovered: `${DENSE_NOT_COVERED}: its files were not hashed${own ? ` (lexcase index dense ${dir} --rebuild records them)` : ''}` };
  const checked = await verifyDenseTableFiles(uri, section.table, section.files);
  const hint = own ? `rebuild the dense part: lexcase index dense ${dir} --rebuild` : undefined;
  problems.push(...checked.problems.map((p) => ({ ...p, ...(hint ? { hint } : {}) })));
  return { problems, files: { files: checked.files, bytes: checked.bytes } };
}
