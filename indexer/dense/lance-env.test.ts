/**
 * Lance reads LANCE_CPU_THREADS when its pool starts (first use), so the pool size lexcase needs
 * (≥ 4 threads: the default pool deadlocked the full-text build on 2 cores) is set again at each
 * connect, not only when lance-env.ts loads. Before, a process whose environment lost the variable
 * after the module loaded (the test tiers put each file's environment back) started Lance with the
 * default pool: retrieval/lancedb-fts-large.test.ts hung for 120 s in CI's shared workers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { connectDense } from './lance-table.js';

const saved = { threads: process.env.LANCE_CPU_THREADS, log: process.env.LANCEDB_LOG };
afterEach(() => {
  for (const [k, v] of [
    ['LANCE_CPU_THREADS', saved.threads],
    ['LANCEDB_LOG', saved.log],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

it("connecting sets Lance's pool size and log level again when the environment lost them; a user's own values win", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'lexcase-lance-env-'));
  try {
    delete process.env.LANCE_CPU_THREADS;
    delete process.env.LANCEDB_LOG;
    await connectDense(join(dir, 'a.lance'));
    expect(process.env.LANCE_CPU_THREADS).toBe(String(Math.max(4, availableParallelism())));
    expect(process.env.LANCEDB_LOG).toBe('error');
    process.env.LANCE_CPU_THREADS = '7';
    process.env.LANCEDB_LOG = 'info';
    await connectDense(join(dir, 'b.lance'));
    expect(process.env.LANCE_CPU_THREADS).toBe('7');
    expect(process.env.LANCEDB_LOG).toBe('info');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
