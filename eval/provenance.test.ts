import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitSha } from './provenance.js';

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
