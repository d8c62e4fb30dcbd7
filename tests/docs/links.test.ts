/**
 * Every relative link in README.md and docs/**\/*.md resolves to a file of the checkout and, where
 * it names an anchor, to a heading of that file; and the README stays a front page (≤ 15 KB; the
 * reference lives in docs/, the experiment logs in docs/notes/).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docFiles } from './docs-check.js';
import { anchors, checkLink, relativeLinks, slug } from './links.js';

const root = join(import.meta.dirname, '../..');

describe('link rules', () => {
  it('slugs headings as GitHub does', () => {
    expect(slug('Approximate mode (opt-in)')).toBe('approximate-mode-opt-in');
    expect(slug('Embedders (`indexer/embed/`)')).toBe('embedders-indexerembed');
    expect(slug('Record and replay')).toBe('record-and-replay');
    expect(slug('What you can do — a tour')).toBe('what-you-can-do--a-tour');
  });

  it('numbers repeated headings and ignores headings in code', () => {
    const a = anchors('# A\n## Notes\n```bash\n# not a heading\n```\n## Notes\n');
    expect([...a]).toEqual(['a', 'notes', 'notes-1']);
  });

  it('finds links outside code, skips external ones, and names a missing file or anchor', () => {
    const text = 'see [x](docs/x.md#top) and `[y](nope.md)` and [w](https://example.com)\n```\n[z](gone.md)\n```\n';
    const links = relativeLinks('README.md', text);
    expect(links).toEqual([{ file: 'README.md', line: 1, target: 'docs/x.md#top' }]);
    expect(checkLink(root, { file: 'README.md', line: 1, target: 'docs/nope.md' })).toEqual(['README.md:1: docs/nope.md: no such file docs/nope.md']);
    expect(checkLink(root, { file: 'README.md', line: 2, target: 'docs/cli.md#no-such-heading' })[0]).toMatch(
      /docs\/cli\.md has no heading with anchor #no-such-heading/,
    );
    expect(checkLink(root, { file: 'docs/cli.md', line: 3, target: '../README.md' })).toEqual([]);
    expect(checkLink(root, { file: 'docs/cli.md', line: 4, target: '../../x.md' })[0]).toMatch(/outside the checkout/);
  });
});

describe('the project docs as they stand', () => {
  it('every relative link resolves to a file and, with an anchor, to a heading', () => {
    const problems: string[] = [];
    for (const f of docFiles(root)) {
      for (const l of relativeLinks(f, readFileSync(join(root, f), 'utf8'))) problems.push(...checkLink(root, l));
    }
    expect(problems).toEqual([]);
  });

  it('README.md is a front page of at most 15 KB', () => {
    expect(statSync(join(root, 'README.md')).size).toBeLessThanOrEqual(15_000);
  });
});
