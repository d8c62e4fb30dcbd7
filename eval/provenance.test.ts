import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readBuildStamp } from './build-stamp.js';
import { gitSha, runGitSha } from './provenance.js';
import { writeBuildStamp } from './write-build-stamp.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-provenance-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.org', '-c', 'user.name=t', ...args], { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();

describe('gitSha: the commit of lexcase’s own checkout, never the repository around an installed package', () => {
  // a user's project under git, with lexcase installed in it (node_modules/lexcase, not tracked)
  const project = join(dir, 'project');
  const installed = join(project, 'node_modules', 'lexcase');
  mkdirSync(installed, { recursive: true });
  writeFileSync(join(installed, 'package.json'), '{"name":"lexcase"}\n');
  writeFileSync(join(project, 'notes.md'), 'the user’s file\n');
  git(project, 'init', '-q');
  git(project, 'add', 'notes.md');
  git(project, 'commit', '-q', '-m', 'user commit');
  const userSha = git(project, 'rev-parse', 'HEAD');

  it('an installed package inside the user’s repository records "unknown", not the user’s commit (clean or dirty)', () => {
    expect(gitSha(installed)).toBe('unknown');
    writeFileSync(join(project, 'notes.md'), 'changed\n');
    expect(gitSha(installed)).toBe('unknown');
    git(project, 'checkout', '-q', '--', 'notes.md');
  });

  it('a checkout of its own records its HEAD, with -dirty when a tracked file differs', () => {
    expect(gitSha(project)).toBe(userSha);
    writeFileSync(join(project, 'notes.md'), 'changed\n');
    expect(gitSha(project)).toBe(`${userSha}-dirty`);
    git(project, 'checkout', '-q', '--', 'notes.md');
    expect(gitSha(project)).toBe(userSha);
  });

  it('a folder outside any repository records "unknown"', () => {
    const bare = join(dir, 'plain');
    mkdirSync(bare);
    expect(gitSha(bare)).toBe('unknown');
  });
});

describe('runGitSha: the commit of the code that runs — built code records its build stamp’s', () => {
  // lexcase's own checkout, built (write-build-stamp.ts, the last step of `npm run build`), then packed and installed in a user's repository
  const checkout = join(dir, 'lexcase-checkout');
  mkdirSync(join(checkout, 'dist'), { recursive: true });
  writeFileSync(join(checkout, 'package.json'), '{"name":"lexcase"}\n');
  git(checkout, 'init', '-q');
  git(checkout, 'add', 'package.json');
  git(checkout, 'commit', '-q', '-m', 'lexcase');
  const built = git(checkout, 'rev-parse', 'HEAD');
  const stampFile = join(checkout, 'dist', 'build-stamp.json');
  writeBuildStamp(stampFile, checkout);
  const project = join(dir, 'user-project');
  const installed = join(project, 'node_modules', 'lexcase');
  mkdirSync(installed, { recursive: true });
  git(project, 'init', '-q');

  it('an installed package records the commit its dist/ was built from (it has no checkout: gitSha says "unknown")', () => {
    expect(gitSha(installed)).toBe('unknown');
    expect(readBuildStamp(stampFile)).toMatchObject({ gitSha: built });
    expect(runGitSha({ checkout: gitSha(installed), stamp: readBuildStamp(stampFile) })).toEqual({ gitSha: built });
  });

  it('a checkout moved to another commit after its build records the build’s commit (the code that runs) and the checkout’s beside it', () => {
    writeFileSync(join(checkout, 'package.json'), '{"name":"lexcase","version":"2"}\n');
    git(checkout, 'commit', '-q', '-am', 'later');
    const later = git(checkout, 'rev-parse', 'HEAD');
    expect(runGitSha({ checkout: gitSha(checkout), stamp: readBuildStamp(stampFile) })).toEqual({ gitSha: built, checkoutGitSha: later });
    // rebuilt: one commit, no second one
    writeBuildStamp(stampFile, checkout);
    expect(runGitSha({ checkout: gitSha(checkout), stamp: readBuildStamp(stampFile) })).toEqual({ gitSha: later });
  });

  it('no stamp (run from the sources, or a dist/ built before stamps): the checkout’s commit, as gitSha gives it', () => {
    expect(runGitSha({ checkout: gitSha(checkout), stamp: undefined })).toEqual({ gitSha: gitSha(checkout) });
    expect(readBuildStamp(join(dir, 'no-such-stamp.json'))).toBeUndefined();
  });
});
