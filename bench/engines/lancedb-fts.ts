/**
 * LanceDB native full-text search (Rust, on disk). Its own tokenizer pipeline is configured to match
 * lexcase's analyzer as far as it can (lowercase, English stopwords, English stemming); positions
 * are off because no engine here does phrase queries. Rows are appended in batches of 20,000
 * (one fragment each, no compaction), so the directory holds the text once plus the FTS index.
 */
import '../../indexer/dense/lance-env.js';
import * as lancedb from '@lancedb/lancedb';
import { join } from 'node:path';
import { readPassagesJsonl } from '../read-jsonl.js';
import type { Engine, EngineContext } from './types.js';

const TABLE = 'passages';
const BATCH = 20_000;
const dbDir = (ctx: EngineContext) => join(ctx.workDir, 'lancedb');

export const lanceDbFtsEngine: Engine = {
  name: 'lancedb-fts',
  persistent: true,
  async build(ctx) {
    const db = await lancedb.connect(dbDir(ctx));
    let table: lancedb.Table | undefined;
    let batch: Array<{ id: string; text: string }> = [];
    const flush = async () => {
      if (!batch.length) return;
      if (!table) table = await db.createTable(TABLE, batch, { mode: 'overwrite' });
      else await table.add(batch);
      batch = [];
    };
    for await (const p of readPassagesJsonl(ctx.corpusFile)) {
      batch.push({ id: p.id, text: p.text });
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    if (!table) throw new Error(`lancedb-fts: empty corpus ${ctx.corpusFile}`);
    await table.createIndex('text', {
      config: lancedb.Index.fts({
        withPosition: false,
        lowercase: true,
        stem: true,
        removeStopWords: true,
        language: 'English',
      }),
    });
    table.close();
    db.close();
    return { indexDir: dbDir(ctx) };
  },
  async open(ctx) {
    const db = await lancedb.connect(dbDir(ctx));
    const table = await db.openTable(TABLE);
    return {
      async search(q, k) {
        const rows = await table.query().fullTextSearch(q).select(['id']).limit(k).toArray();
        return rows.map((r) => String((r as { id: unknown }).id));
      },
      close() {
        table.close();
        db.close();
      },
    };
  },
};
