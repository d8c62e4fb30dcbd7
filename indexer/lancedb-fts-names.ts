/** Where an index dir keeps its lancedb-fts table (lancedb-fts-build.ts), without loading LanceDB. */
export const LANCE_FTS_DIR = 'lancedb-fts';
export const LANCE_FTS_TABLE = 'passages';
