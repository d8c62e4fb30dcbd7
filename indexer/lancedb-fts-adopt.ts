/**
 * A lancedb-fts table built before lexcase recorded what it indexes (a manifest with the method but
 * no `lancedbFts.textChecksum`): `lexcase index lancedb-fts DIR` without --rebuild (ensureLanceFts)
 * reads the table's rows and the doc store and compares them as sets of (id, indexed text), the
 * indexed text being the passage's title + text (dense/embedded-text.ts passageEmbedText, as the
 * build writes it). When they are the same, the checksum a build would record (doc-store order) is
 * recorded, so runs over the index record it and a resume or merge compares it. When they differ
 * (a table built from other texts: another corpus, a table written without titles), nothing is
 * recorded and the command stops naming --rebuild: the doc store's checksum recorded for a table
 * that indexes other text would make a run's indexContent name text the table does not hold.
 * The rows are compared as a set (row count and the sum of each row's sha256 mod 2^256), so the
 * order LanceDB reads them in does not matter.
 */
import type * as lancedb from '@lancedb/lancedb';
import { createHash } from 'node:crypto';
import { errors } from '../core/errors.js';
import { log } from '../core/log.js';
import { EmbeddedTextHash, passageEmbedText } from './dense/embedded-text.js';
import { openDocStore } from './docstore.js';
import { readManifest, writeManifest } from './manifest.js';

const MOD = 1n << 256n;

/** An order-free digest of (id, text) rows: how many, and the sum of each row's sha256 mod 2^256. */
class RowSetDigest {
  rows = 0;
  private sum = 0n;

  add(id: string, text: string): void {
    this.rows++;
    this.sum =
      (this.sum +
        BigInt(
          `0x${createHash('sha256')
            .update(JSON.stringify([id, text]))
            .digest('hex')}`,
        )) %
      MOD;
  }

  equals(o: RowSetDigest): boolean {
    return this.rows === o.rows && this.sum === o.sum;
  }
}

/** A lancedb-fts table's rows set against the doc store's passages: what they hold, and how they differ. */
export interface LanceFtsRowsCheck {
  /** Rows of the table, passages of the doc store. */
  rows: number;
  passages: number;
  /** The checksum of the doc store's ids and indexed texts, in doc-store order (what a build records). */
  textChecksum: string;
  /** How the table's rows differ from the doc store's (id, title + text); undefined when they are the same set. */
  mismatch?: string;
}

/**
 * Read every row of `table` (id, text) and every passage of the doc store in `dir`, and compare
 * them as sets of (id, indexed text). Used to adopt an older table (recordOlderLanceFts) and by
 * `lexcase index verify` (verify-lancedb-fts.ts). A table with no id or text column is
 * LanceFtsUnconfirmed; a read failure (a damaged data file) is thrown as LanceDB raised it.
 */
export async function compareLanceFtsRows(dir: string, table: lancedb.Table): Promise<LanceFtsRowsCheck> {
  const textHash = new EmbeddedTextHash();
  const want = new RowSetDigest();
  const store = await openDocStore(dir);
  try {
    for await (const p of store.entries()) {
      const text = passageEmbedText(p);
      textHash.add(p.id, text);
      want.add(p.id, text);
    }
  } finally {
    await store.close();
  }
  const got = new RowSetDigest();
  for await (const batch of table.query().select(['id', 'text'])) {
    const ids = batch.getChild('id');
    const texts = batch.getChild('text');
    if (!ids || !texts) throw errors.lanceFtsUnconfirmed(dir, 'its table has no id or text column');
    for (let i = 0; i < batch.numRows; i++) got.add(String(ids.get(i)), String(texts.get(i)));
  }
  const n = (k: number) => k.toLocaleString('en-US');
  const mismatch = want.equals(got)
    ? undefined
    : got.rows === want.rows
      ? `its ${n(got.rows)} rows are not the doc store's ${n(want.rows)} passages (an id, title or text differs)`
      : `it holds ${n(got.rows)} rows where the doc store holds ${n(want.rows)} passages`;
  return { rows: got.rows, passages: want.rows, textChecksum: textHash.digest(), ...(mismatch ? { mismatch } : {}) };
}

/** Record the checksum of an older lancedb-fts table's content when its rows are the doc store's; LanceFtsUnconfirmed (INDEX_INCOMPATIBLE, naming --rebuild) otherwise. */
export async function recordOlderLanceFts(dir: string, table: lancedb.Table): Promise<string> {
  const { passages, textChecksum, mismatch } = await compareLanceFtsRows(dir, table);
  if (mismatch) throw errors.lanceFtsUnconfirmed(dir, mismatch);
  const latest = await readManifest(dir);
  await writeManifest(dir, { ...latest, lancedbFts: { textChecksum } });
  log.info(
    `lancedb-fts: the table (built before its checksum was recorded) holds the doc store's ${passages.toLocaleString('en-US')} passages, ids, titles and texts; recorded their checksum sha256 ${textChecksum.slice(0, 12)}… (manifest lancedbFts.textChecksum)`,
  );
  return textChecksum;
}
