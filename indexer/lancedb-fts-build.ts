/**
 * Builds the `lancedb-fts` method of an index dir: LanceDB's own full-text index (English stemming,
 * stop words) over the doc store, into <dir>/lancedb-fts (table "passages": id, text), recorded in
 * the manifest's methods, with the checksum of the ids and texts (title + text) it indexes
 * (`lancedbFts.textChecksum`: a title-only change, which the corpus checksum does not see, changes it).
 * A table the index already has is kept (without --rebuild) when it holds a row per passage (else
 * INDEX_CORRUPT naming --rebuild); one built before the checksum was
 * recorded gets it recorded when its rows are the doc store's, else the command stops naming
 * --rebuild (lancedb-fts-adopt.ts). Searching it is retrieval/lancedb-fts.ts.
 */
import { applyLanceEnv } from './dense/lance-env.js';
import * as lancedb from '@lancedb/lancedb';
import { join } from 'node:path';
import { openDocStore } from './docstore.js';
import { readManifest, writeManifest } from './manifest.js';
import { errors } from '../core/errors.js';
import { log } from '../core/log.js';
import { lanceUri } from './dense/dense-section.js';
import { EmbeddedTextHash, passageEmbedText } from './dense/embedded-text.js';

import { LANCE_FTS_DIR, LANCE_FTS_TABLE, lanceFtsPart, lanceFtsRebuildHint } from './lancedb-fts-names.js';

export { LANCE_FTS_DIR, LANCE_FTS_TABLE };

/** Build the FTS table if the index dir does not have it yet (writes into the index dir); returns the opened table. */
export async function ensureLanceFts(dir: string, opts: { rebuild?: boolean } = {}): Promise<lancedb.Table> {
  return (await addLanceFts(dir, opts)).table;
}

/**
 * What `addLanceFts` did: built the table; kept the one the index has (its checksum recorded); or
 * kept a table from before the checksum and recorded it, the rows being the doc store's (lancedb-fts-adopt.ts).
 */
export type LanceFtsOutcome = 'built' | 'kept' | 'recorded';

/** ensureLanceFts, saying what it did. A table from before the checksum whose rows are not the doc store's is INDEX_INCOMPATIBLE naming --rebuild. */
export async function addLanceFts(dir: string, opts: { rebuild?: boolean } = {}): Promise<{ table: lancedb.Table; outcome: LanceFtsOutcome }> {
  applyLanceEnv();
  const db = await lancedb.connect(lanceUri(join(dir, LANCE_FTS_DIR)));
  const manifest = await readManifest(dir);
  if (!opts.rebuild && (await db.tableNames()).includes(LANCE_FTS_TABLE) && manifest.methods.includes('lancedb-fts')) {
    const table = await db.openTable(LANCE_FTS_TABLE);
    if (manifest.lancedbFts) {
      // kept only when it still holds a row per passage (a count, from LanceDB's metadata; `index verify` reads every row)
      const rows = await table.countRows();
      const n = (k: number) => k.toLocaleString('en-US');
      if (rows !== manifest.corpus.passages)
        throw errors.indexCorrupt(
          lanceFtsPart(dir),
          `the table holds ${n(rows)} rows where the doc store holds ${n(manifest.corpus.passages)} passages; nothing built`,
          lanceFtsRebuildHint(dir),
        );
      return { table, outcome: 'kept' };
    }
    const { recordOlderLanceFts } = await import('./lancedb-fts-adopt.js');
    await recordOlderLanceFts(dir, table);
    return { table, outcome: 'recorded' };
  }
  log.info(`lancedb-fts: building LanceDB full-text index over ${manifest.corpus.passages} passages`);
  const store = await openDocStore(dir);
  let table: lancedb.Table | undefined;
  // what the table indexes (titles included, which the corpus checksum does not cover): recorded, so a run's indexContent changes with a title
  const textHash = new EmbeddedTextHash();
  try {
    let batch: Array<{ id: string; text: string }> = [];
    const flush = async () => {
      if (!batch.length) return;
      if (!table) table = await db.createTable(LANCE_FTS_TABLE, batch, { mode: 'overwrite' });
      else await table.add(batch);
      batch = [];
    };
    for await (const p of store.entries()) {
      const text = passageEmbedText(p);
      textHash.add(p.id, text);
      batch.push({ id: p.id, text });
      if (batch.length >= 10_000) await flush();
    }
    await flush();
  } finally {
    await store.close();
  }
  if (!table) throw errors.indexCorrupt(dir, 'cannot build lancedb-fts over an empty corpus');
  await table.createIndex('text', {
    config: lancedb.Index.fts({ withPosition: false, lowercase: true, stem: true, removeStopWords: true, language: 'English' }),
  });
  const latest = await readManifest(dir);
  const methods = latest.methods.includes('lancedb-fts') ? latest.methods : [...latest.methods, 'lancedb-fts'];
  await writeManifest(dir, { ...latest, methods, lancedbFts: { textChecksum: textHash.digest() } });
  return { table, outcome: 'built' };
}
