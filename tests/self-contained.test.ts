/**
 * The fresh-clone contract: no source file of the repository (product, tests, benchmarks, scripts,
 * CI) reads the development data folder that sits beside some checkouts. A user's clone has nothing
 * beside it, so tests use corpora/data/ (bundled) or tests/fixtures/ instead.
 *
 * The patterns are assembled from pieces so that this file does not match them itself.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/version.js';

const DIR = 'shared';
const PARENT = '\\.\\.';
const SEP = '[\\\\/]';
const Q = '[\'"`]';
/** The parent-relative folder (any depth, either separator), its join(…) spelling, and the absolute development path. */
const OUTSIDE = [
  new RegExp(`${PARENT}${SEP}+${DIR}(?![\\w.-])`),
  new RegExp(`${Q}${PARENT}${Q}\\s*,\\s*${Q}${DIR}${Q}`),
  new RegExp(`${SEP}work${SEP}${DIR}(?![\\w.-])`),
];
const readsOutside = (text: string): boolean => OUTSIDE.some((re) => re.test(text));

/** Source, script and config files: code and CI, not prose (docs may explain the history) nor data. */
const SOURCE = /\.(?:[cm]?[jt]sx?|py|sh|json|html|css|ya?ml)$/;
const isSource = (f: string) => (SOURCE.test(f) || f.startsWith('.ci/')) && !f.startsWith('bench/results/');

/** Tracked files plus new ones git does not ignore (so a file is checked before its first commit). */
function repoFiles(): string[] {
  try {
    return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: PACKAGE_ROOT, encoding: 'utf8', maxBuffer: 64 << 20 })
      .split('\0')
      .filter(Boolean);
  } catch {
    // not a git checkout: walk the tree as a clone would have it
    const out: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (['node_modules', 'dist', '.git'].includes(e.name) || (e.name.startsWith('.') && e.name !== '.ci')) continue;
        const p = join(d, e.name);
        if (e.isDirectory()) walk(p);
        else out.push(relative(PACKAGE_ROOT, p).split('\\').join('/'));
      }
    };
    walk(PACKAGE_ROOT);
    return out;
  }
}

describe('the repository stands on its own (no data read from beside the checkout)', () => {
  it('the patterns catch the ways a file could point there, and leave the bundled paths alone', () => {
    const up = '..';
    expect(readsOutside(`readFileSync(join(process.cwd(), '${up}/${DIR}/data/legal_corpus/passages.jsonl'))`)).toBe(true);
    expect(readsOutside(`resolve(import.meta.dirname, '${up}/${up}/${DIR}/data/legalbench')`)).toBe(true);
    expect(readsOutside(`const d = \`\${root}/${up}/${DIR}\`;`)).toBe(true);
    expect(readsOutside(`join(ROOT, '${up}', '${DIR}', 'data')`)).toBe(true);
    expect(readsOutside(`cp -r /work/${DIR}/data tmp`)).toBe(true);
    expect(readsOutside(`join(DATA_DIR, 'legal_corpus/passages.jsonl.gz')`)).toBe(false);
    expect(readsOutside(`const shared = pool.filter(inBoth); // ${DIR} by every debater`)).toBe(false);
    expect(readsOutside(`join(here, '${up}/${DIR}-utils.js')`)).toBe(false);
  });

  it('no tracked source, test, bench, script or CI file reads it', () => {
    const files = repoFiles().filter(isSource);
    expect(files.length).toBeGreaterThan(300);
    expect(files).toEqual(expect.arrayContaining(['.ci/run', 'package.json', 'src/cli/main.ts', 'indexer/build.test.ts', 'bench/embed-throughput.ts']));
    expect(files).toContain('tests/self-contained.test.ts');
    const offenders = files.filter((f) => readsOutside(readFileSync(join(PACKAGE_ROOT, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
