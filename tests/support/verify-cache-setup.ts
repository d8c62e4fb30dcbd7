/**
 * Vitest setup: each test file keeps its index verification records (indexer/verify-record.ts) in
 * its own temp dir, never in the user's ~/.cache, and removes them afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-verify-cache-'));
process.env.LEXCASE_VERIFY_CACHE_DIR = dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
