/**
 * `lexcase index verify` for the lancedb-fts part (lancedb-fts-build.ts): LanceDB owns the table's
 * files, so they have no sha256 in the manifest; instead the table must be there, hold exactly the
 * doc store's passages as (id, title + text) rows (every row read: compareLanceFtsRows, the check that
 * adopts an older table), have a full-text index on its text covering every row, and, when the
 * manifest records it, the checksum of those ids and texts must be the recorded one (what runs over
 * the index record as its content). Problems are returned, none thrown; `checked` says what held.
 */
import * as lancedb from '@lancedb/lancedb';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from '../core/errors.js';
import { applyLanceEnv } from './dense/lance-env.js';
import { lanceUri } from './dense/dense-section.js';
import type { VerifyProblem } from './integrity.js';
import { compareLanceFtsRows } from './lancedb-fts-adopt.js';
import { LANCE_FTS_DIR, LANCE_FTS_TABLE, lanceFtsPart, lanceFtsRebuildHint } from './lancedb-fts-names.js';
import type { Manifest } from './manifest.js';

/** What a clean check of the lancedb-fts table established. */
export interface LanceFtsChecked {
  rows: number;
  /** The checksum of the ids and indexed texts the table holds (the doc store's, in its order). */
  textChecksum: string;
  /** Whether the manifest records that checksum (indexes from before it was recorded do not). */
  recorded: boolean;
}

export async function verifyLanceFtsTable(dir: string, m: Manifest): Promise<{ problems: VerifyProblem[]; checked?: LanceFtsChecked }> {
  if (!m.methods.includes('lancedb-fts')) return { problems: [] };
  const path = join(dir, LANCE_FTS_DIR);
  const file = lanceFtsPart(dir);
  const hint = lanceFtsRebuildHint(dir);
  const fail = (message: string) => ({ problems: [{ file, message, hint }] });
  if (!existsSync(path)) return fail('the table is missing (the manifest lists the method lancedb-fts)');
  try {
    applyLanceEnv();
    const db = await lancedb.connect(lanceUri(path));
    if (!(await db.tableNames()).includes(LANCE_FTS_TABLE)) return fail('the table is missing (the manifest lists the method lancedb-fts)');
    const table = await db.openTable(LANCE_FTS_TABLE);
    const fts = (await table.listIndices()).find((i) => i.indexType === 'FTS' && i.columns.includes('text'));
    if (!fts) return fail('the table has no full-text index on its text');
    const rows = await compareLanceFtsRows(dir, table);
    if (rows.mismatch) return fail(`the table does not hold the doc store's passages: ${rows.mismatch}`);
    const unindexed = (await table.indexStats(fts.name))?.numUnindexedRows ?? 0;
    if (unindexed > 0) return fail(`${unindexed.toLocaleString('en-US')} of its rows are not in its full-text index`);
    const want = m.lancedbFts?.textChecksum;
    if (want !== undefined && want !== rows.textChecksum)
      return fail(
        `its ids, titles and texts (sha256 ${rows.textChecksum.slice(0, 12)}…) are not the ones the manifest records (sha256 ${want.slice(0, 12)}…, lancedbFts.textChecksum)`,
      );
    return { problems: [], checked: { rows: rows.rows, textChecksum: rows.textChecksum, recorded: want !== undefined } };
  } catch (e) {
    // a data file LanceDB cannot read (truncated, replaced): its own message, under this part's name
    return fail(`the table cannot be read: ${errorMessage(e)}`);
  }
}
