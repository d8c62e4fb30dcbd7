/**
 * Provenance written into every run's config.json: lexcase version, git sha of the working tree
 * (or 'unknown' — never fails), a checksum of the items run (ids and gold labels, so two runs can
 * be told apart when the split changed), Node version and timestamps.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { PACKAGE_ROOT, VERSION } from '../core/version.js';

export function gitSha(cwd: string = PACKAGE_ROOT): string {
  try {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 })
      .toString()
      .trim();
    if (!/^[0-9a-f]{7,64}$/.test(sha)) return 'unknown';
    let dirty = false;
    try {
      dirty =
        execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd, stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 })
          .toString()
          .trim().length > 0;
    } catch {
      /* unknown dirtiness: report the sha alone */
    }
    return dirty ? `${sha}-dirty` : sha;
  } catch {
    return 'unknown';
  }
}

/** sha256 over the items' ids and gold labels, in order. */
export function datasetChecksum(items: { id: string }[], gold?: (item: never) => string): string {
  const h = createHash('sha256');
  for (const it of items) {
    h.update(it.id);
    h.update('\t');
    if (gold) h.update(String(gold(it as never)));
    h.update('\n');
  }
  return `sha256:${h.digest('hex')}`;
}

export interface Provenance {
  lexcaseVersion: string;
  gitSha: string;
  node: string;
  datasetChecksum: string;
  items: number;
  createdAt: string;
}

export function provenance(items: { id: string }[], gold?: (item: never) => string): Provenance {
  return {
    lexcaseVersion: VERSION,
    gitSha: gitSha(),
    node: process.version,
    datasetChecksum: datasetChecksum(items, gold),
    items: items.length,
    createdAt: new Date().toISOString(),
  };
}
