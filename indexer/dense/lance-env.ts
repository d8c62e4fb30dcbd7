/**
 * Imported before @lancedb/lancedb (lance-table.ts, retrieval/lancedb-fts.ts, the bench engine):
 * - keep the native library's Rust logger to errors unless the user asked for more
 *   (LANCEDB_LOG=info|debug), so "No existing dataset … will be created" warnings do not clutter the CLI;
 * - give Lance's CPU thread pool at least 4 threads. With LanceDB 0.31.0 on a 2-core machine the
 *   default pool (one per core) deadlocks while building a full-text index over ~20K+ passages;
 *   with 4 threads 100K passages index in ~6 s. A user's LANCE_CPU_THREADS wins.
 */
import { availableParallelism } from 'node:os';

/**
 * Sets both variables where unset. Lance reads them when its pool and logger start — on first use,
 * not when the module loads — so every connect calls this again: a program (or a test runner that
 * puts its environment back between files) that dropped them after this module loaded would
 * otherwise start Lance with the default pool, which deadlocked the full-text build (issue 31).
 */
export function applyLanceEnv(): void {
  process.env.LANCEDB_LOG ??= 'error';
  process.env.LANCE_CPU_THREADS ??= String(Math.max(4, availableParallelism()));
}
applyLanceEnv();
