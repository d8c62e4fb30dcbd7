/**
 * Imported before @lancedb/lancedb: keep the native library's Rust logger to errors unless the user
 * asked for more (LANCEDB_LOG=info|debug), so "No existing dataset … will be created" warnings do
 * not clutter the CLI.
 */
process.env.LANCEDB_LOG ??= 'error';
export {};
