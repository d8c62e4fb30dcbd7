/**
 * The cached sha256 of a local model file (model-hash.ts) names the bytes the file holds now: the
 * response cache and recordings key a local model's replies on it (settings.ts localModelId).
 */
import { mkdtempSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { modelFileHash } from './model-hash.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A GGUF-like file: the magic, then `fill` repeated to `size` bytes (a re-quantization of the same size). */
const gguf = (fill: number, size = 1 << 16) => Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(size - 4, fill)]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('the cached sha256 of a model file', () => {
  it('a file rewritten with the same size and its mtime set back (cp -p, rsync -t, touch -d) is hashed again', () => {
    dir = mkdtempSync(join(tmpdir(), 'lexcase-model-hash-'));
    const file = join(dir, 'model.gguf');
    const cache = join(dir, 'model-sha256.json');
    const q4 = gguf(1);
    writeFileSync(file, q4);
    const T = 1_767_225_600; // a whole second: the file system keeps it exactly
    utimesSync(file, T, T);
    const first = modelFileHash(file, cache);
    expect(first).toMatchObject({ sha256: sha(q4), cached: false });
    expect(modelFileHash(file, cache)).toMatchObject({ sha256: sha(q4), cached: true }); // unchanged: from the cache

    // another model of the same size written over the same file, its mtime put back as cp -p does; the
    // file system's clock ticks coarsely (ms), so it is written until its ctime is another than when hashed
    const q5 = gguf(2);
    const hashed = statSync(file);
    do {
      writeFileSync(file, q5);
      utimesSync(file, T, T);
    } while (statSync(file).ctimeMs === hashed.ctimeMs);
    expect(statSync(file)).toMatchObject({ mtimeMs: hashed.mtimeMs, size: hashed.size, ino: hashed.ino });
    expect(modelFileHash(file, cache)).toMatchObject({ sha256: sha(q5), cached: false });
    expect(modelFileHash(file, cache)).toMatchObject({ sha256: sha(q5), cached: true });

    // rsync -t: written beside and renamed over, the mtime set back (another inode)
    const q8 = gguf(3);
    writeFileSync(join(dir, '.model.gguf.tmp'), q8);
    utimesSync(join(dir, '.model.gguf.tmp'), T, T);
    renameSync(join(dir, '.model.gguf.tmp'), file);
    expect(modelFileHash(file, cache)).toMatchObject({ sha256: sha(q8), mtimeMs: first.mtimeMs, size: first.size, cached: false });
  });
});
