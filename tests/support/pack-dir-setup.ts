/**
 * Vitest global setup of the slow tier: one temp dir per test run where the first test file that
 * needs the packed package packs it (tests/support/installed-package.ts: packedTarball), and the
 * others reuse that tarball instead of packing again. Removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared `npm pack` dir (absent outside the slow tier: each file then packs for itself). */
    packDir?: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'lexcase-pack-once-'));
  project.provide('packDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
