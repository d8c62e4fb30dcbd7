/** Where an index dir keeps its lancedb-fts table (lancedb-fts-build.ts), without loading LanceDB. */
export const LANCE_FTS_DIR = 'lancedb-fts';
export const LANCE_FTS_TABLE = 'passages';

/** How messages name an index's lancedb-fts table. */
export const lanceFtsPart = (dir: string): string => `${dir}/${LANCE_FTS_DIR} (lancedb-fts table "${LANCE_FTS_TABLE}")`;

/** The repair for a damaged lancedb-fts table: it is built again from the doc store alone. */
export const lanceFtsRebuildHint = (dir: string): string => `rebuild the table from the doc store: lexcase index lancedb-fts ${dir} --rebuild`;
