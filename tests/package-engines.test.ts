/**
 * The Node line is true for the package and for development: package.json `engines` is a range
 * every package in package-lock.json (runtime and development, as `npm ci` installs them) accepts
 * by its own `engines` — so `npm ci` and `npm install lexcase` print no EBADENGINE warning on any
 * Node the range names — and the README and docs/library.md state that same range.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/version.js';

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { engines?: { node?: string } };
const lock = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

/** "^20.19.0 || ^22.13.0 || >=24" → "Node 20.19+, 22.13+ or 24+", the words the docs use. */
function inWords(range: string): string {
  const parts = range.split('||').map(
    (p) =>
      p
        .trim()
        .replace(/^(\^|>=)/, '')
        .replace(/\.0$/, '')
        .replace(/\.0$/, '') + '+',
  );
  return `Node ${parts.slice(0, -1).join(', ')}${parts.length > 1 ? ' or ' : ''}${parts.at(-1)}`;
}

describe('engines', () => {
  const range = pkg.engines?.node ?? '';

  it('package.json names a Node range that every installed package accepts', () => {
    expect(semver.validRange(range), `engines.node ${JSON.stringify(range)}`).toBeTruthy();
    const refused: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      const want = !p.engines || Array.isArray(p.engines) ? undefined : p.engines.node;
      if (!path || !want) continue;
      if (!semver.subset(range, want)) refused.push(`${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${want}`);
    }
    expect(refused, `engines.node ${range} is wider than these packages allow`).toEqual([]);
    // the Node this test runs on is one the range names (CI runs on it)
    expect(semver.satisfies(process.versions.node, range)).toBe(true);
  });

  it('the README and docs/library.md state the same range', () => {
    const words = inWords(range);
    expect(readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8')).toContain(`${words} (package.json \`engines\``);
    expect(readFileSync(join(PACKAGE_ROOT, 'docs/library.md'), 'utf8')).toContain(words);
  });
});
