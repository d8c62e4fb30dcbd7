/**
 * Issue 41's features as a user meets them: from the packed tarball installed into an empty project
 * (tests/support/installed-package.ts), the installed `lexcase` bin run as a child process and the
 * library imported by a node script. Each block names the feature it drives.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLink, relativeLinks } from './docs/links.js';
import { installPackedPackage, type InstalledPackage } from './support/installed-package.js';
import { runBuiltCli } from './support/run-built-cli.js';

const work = mkdtempSync(join(tmpdir(), 'lexcase-installed-'));
let pkg: InstalledPackage;
const lexcase = (args: string[]) => runBuiltCli(args, { cli: pkg.cli, cwd: pkg.proj, timeoutMs: 240_000 });

beforeAll(async () => {
  pkg = await installPackedPackage(work);
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the installed package', () => {
  it('every relative link of its README and its docs opens a file of the package (the docs ship with it)', () => {
    const mds = pkg.files.filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));
    expect(mds).toEqual(expect.arrayContaining(['README.md', 'docs/cli.md', 'docs/library.md']));
    const links = mds.flatMap((f) => relativeLinks(f, readFileSync(join(pkg.dir, f), 'utf8')));
    expect(links.filter((l) => l.file === 'README.md').length).toBeGreaterThan(25);
    expect(links.flatMap((l) => checkLink(pkg.dir, l))).toEqual([]);
  });
});
