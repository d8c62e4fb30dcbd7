/**
 * `lexcase index verify` for the dense part: the LanceDB table the manifest records must be there,
 * belong to this index (owner in its schema metadata), have the recorded row count, and hold exactly
 * the recorded passage ids (their digest; every id is read). Problems are returned, none thrown.
 */
import type { Manifest } from '../manifest.js';
import type { VerifyProblem } from '../integrity.js';
import { denseIdsDigest, denseSectionOf, resolveDenseUri } from './dense-section.js';
import { checkDenseTable, connectDense, existingIds, idsMismatch, tryOpenTable } from './lance-table.js';

export async function verifyDenseTable(dir: string, m: Manifest): Promise<VerifyProblem[]> {
  const section = denseSectionOf(m);
  if (!section || !m.methods.includes('dense')) return [];
  const uri = resolveDenseUri(dir, section.uri);
  const file = `${uri} (dense table "${section.table}")`;
  try {
    const t = await tryOpenTable(await connectDense(uri), section.table);
    if (!t) return [{ file, message: 'the table is missing' }];
    await checkDenseTable(t, section, uri, dir);
    const bad = idsMismatch(denseIdsDigest(await existingIds(t)), section.ids);
    return bad ? [{ file, message: `the table does not hold ${dir}'s vectors: ${bad}` }] : [];
  } catch (e) {
    const msg = (e as Error).message;
    const head = `${file}: index file is corrupt: `;
    return [{ file, message: msg.startsWith(head) ? msg.slice(head.length) : msg }];
  }
}
