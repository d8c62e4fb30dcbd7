/**
 * The build removes its segments folder (a folder inside its temp dir) after the merge: every file
 * the build wrote there — worker segments and range merge outputs — is recognised as the build's
 * and removed without a "kept" warning; a user's file there is still kept.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import { createMarkedDir, removeTempDir } from './build-dirs.js';

describe('removeTempDir on a folder inside the build temp dir', () => {
  afterEach(() => vi.restoreAllMocks());

  it('removes segments/ with its w*-*.seg and range-* files and warns about nothing', () => {
    const root = join(mkdtempSync(join(tmpdir(), 'lexcase-segs-')), `idx.tmp-${process.pid}`);
    const { token } = createMarkedDir(root, 'index-build');
    const seg = join(root, 'segments');
    mkdirSync(seg);
    for (const f of ['w0-0.seg', 'w1-3.seg', 'range-0.postings', 'range-0.terms', 'range-1.postings', 'range-1.terms']) writeFileSync(join(seg, f), 'x');
    const warn = vi.spyOn(log, 'warn');
    removeTempDir(seg, root, token);
    expect(warn).not.toHaveBeenCalled();
    expect(existsSync(seg)).toBe(false);
    expect(existsSync(root)).toBe(true); // only the folder asked for
  });

  it('keeps a file the build did not make, and says so', () => {
    const root = join(mkdtempSync(join(tmpdir(), 'lexcase-segs-')), `idx.tmp-${process.pid}`);
    const { token } = createMarkedDir(root, 'index-build');
    const seg = join(root, 'segments');
    mkdirSync(seg);
    writeFileSync(join(seg, 'range-0.postings'), 'x');
    writeFileSync(join(seg, 'notes.txt'), 'mine');
    const warn = vi.spyOn(log, 'warn');
    removeTempDir(seg, root, token);
    expect(readdirSync(seg)).toEqual(['notes.txt']);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/kept 1 file\(s\) lexcase did not make \(notes\.txt\)/));
  });
});
