/**
 * `lexcase index verify` for the dense part: the LanceDB table the manifest records must be there,
 * belong to this index (owner in its schema metadata), have the recorded row count, hold exactly
 * the recorded passage ids (their digest; every id is read), and — where the manifest records them
 * (`files`, table-files.ts) — have each file of its build with its size and sha256: a vector changed
 * in a data file leaves the owner, rows and ids as they were. Problems are returned, none thrown.
 */
import { log } from '../../core/log.js';
import type { Manifest } from '../manifest.js';
import { verifyFilesOnFirstOpen, verifyMode, type VerifyProblem } from '../integrity.js';
import { DEFAULT_DENSE_TABLE, DEFAULT_DENSE_URI, denseIdsDigest, denseSectionOf, isRemoteUri, resolveDenseUri, type DenseSection } from './dense-section.js';
import { checkDenseTable, connectDense, existingIds, idsMismatch, tryOpenTable } from './lance-table.js';
import { denseFileDigests, denseTableDir, verifyDenseTableFiles } from './table-files.js';

/** Whether the table is the index's own (the default URI and name), which `index dense --rebuild` rebuilds. */
const ownTable = (section: Pick<DenseSection, 'uri' | 'table'>): boolean => section.uri === DEFAULT_DENSE_URI && section.table === DEFAULT_DENSE_TABLE;

/** How to repair a damaged file of the index's own table; undefined for a table elsewhere (the default: rebuild the index). */
const rebuildHint = (dir: string, section: Pick<DenseSection, 'uri' | 'table'>): string | undefined =>
  ownTable(section) ? `rebuild the dense part: lexcase index dense ${dir} --rebuild` : undefined;

/**
 * With LEXCASE_VERIFY=1 (or always), the dense search's open of the index in `dir`: the table files
 * its manifest records (`section.files`) hashed on this process's first open, by integrity.ts's
 * first-open code (the same records — one for the table dir — the same LEXCASE_VERIFY_MAX_MB bound,
 * counted over the table's files alone, and the same INDEX_CORRUPT naming the file and both digests).
 * Before, a vector byte flipped in a `.lance` data file gave a dense search silently different scores
 * with verification on. A table in object storage, or a manifest that records no files (an older
 * lexcase's), is not hashed (a debug line says so); `uri` is the table's resolved URI.
 */
export async function verifyDenseOnFirstOpen(dir: string, section: DenseSection, uri: string): Promise<void> {
  if (verifyMode() === 'off') return;
  if (isRemoteUri(uri)) {
    log.debug(`index ${dir}: dense table in object storage (${uri}): its files are not hashed on open`);
    return;
  }
  const recorded = section.files;
  if (!recorded) {
    log.debug(`index ${dir}: ${DENSE_NOT_COVERED}: its files are not hashed on open`);
    return;
  }
  const root = denseTableDir(uri, section.table);
  const hint = rebuildHint(dir, section);
  await verifyFilesOnFirstOpen({
    root,
    digests: denseFileDigests(recorded),
    what: `index ${dir}: dense table ${root}`,
    keepOut: dir,
    check: async () => {
      const t0 = performance.now();
      const r = await verifyDenseTableFiles(uri, section.table, recorded);
      const problems = hint ? r.problems.map((p) => ({ ...p, hint })) : r.problems;
      return { dir, files: r.files, bytes: r.bytes, ms: performance.now() - t0, problems };
    },
  });
}

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
  if (!section.files)
    return {
      problems,
      uncovered: `${DENSE_NOT_COVERED}: its files were not hashed${ownTable(section) ? ` (lexcase index dense ${dir} --rebuild records them)` : ''}`,
    };
  const checked = await verifyDenseTableFiles(uri, section.table, section.files);
  const hint = rebuildHint(dir, section);
  problems.push(...checked.problems.map((p) => ({ ...p, ...(hint ? { hint } : {}) })));
  return { problems, files: { files: checked.files, bytes: checked.bytes } };
}
