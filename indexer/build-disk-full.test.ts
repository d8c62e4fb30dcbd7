/**
 * A build that runs out of disk ends with one clean error, promptly, and leaves the previous index
 * as it was (issue 26, item 6: with `--workers 2` on a nearly full 30 MB tmpfs the build used to
 * hang, idle and deaf to SIGTERM, when a worker's segment spill failed; another fill level printed
 * a worker stack trace).
 *
 * Two ways of filling the disk:
 *  - a real small tmpfs, when this process may mount one (root on Linux; skipped otherwise): the
 *    built CLI at four fill levels that fail at different points (main-thread doc store, worker
 *    spills at finish, merge);
 *  - everywhere on Linux: the segment files a worker is about to spill are made symbolic links to
 *    /dev/full (every write fails with ENOSPC), through the library.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';
import { cliChild } from '../tests/support/cli-child.js';
import { buildIndex } from './build.js';
import { fromArray, tempDir, texts } from './build-test-helpers.js';
import { readManifest } from './manifest.js';

const tmp = tempDir('lexcase-diskfull-');
const mounted: string[] = [];
afterAll(async () => {
  await closeSparseIndexes();
  for (const m of mounted) execFileSync('umount', [m]);
  tmp.cleanup();
});

/** A deterministic synthetic corpus: `n` passages of 50–200 zipf-ish words (~620 bytes each). */
function synthCorpus(file: string, n: number): void {
  let s = 7;
  const r = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const words: string[] = [];
    for (let j = 50 + Math.floor(r() * 150); j > 0; j--) words.push(`w${Math.floor(r() ** 2 * 40000).toString(36)}`);
    lines.push(JSON.stringify({ id: `p${i}`, text: words.join(' ') }));
  }
  writeFileSync(file, lines.join('\n') + '\n');
}

/** Mount a tmpfs of `mb` MiB at `dir`; false when this process may not. */
function mountTmpfs(dir: string, mb: number): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    return false;
  }
  mounted.push(dir);
  return true;
}

const OLD = texts(['adverse possession requires open and hostile use', 'an easement by necessity', 'the rule against perpetuities']);

async function expectOldIndex(dir: string): Promise<void> {
  expect((await readManifest(dir)).corpus).toMatchObject({ name: 'old', passages: 3 });
  expect((await (await openRetriever(dir, 'bm25')).search('easement necessity'))[0].id).toBe('d1');
  await closeSparseIndexes(dir);
}

const canMount = mountTmpfs(join(tmp.dir, 'probe-mount'), 1);

describe.skipIf(!canMount)('a real disk that fills up (12 MiB tmpfs, `lexcase index build --workers 2`)', () => {
  const corpus = join(tmp.dir, 's10k.jsonl');
  it.each([2, 3, 4, 6])(
    '%i MiB free: exit 1 within 60 s with one ENOSPC line; previous index intact; no temp dir, no lock',
    async (freeMb) => {
      if (!existsSync(corpus)) synthCorpus(corpus, 10_000);
      const mnt = join(tmp.dir, `mnt-${freeMb}`);
      expect(mountTmpfs(mnt, 12)).toBe(true);
      const idx = join(mnt, 'idx');
      await buildIndex(fromArray(OLD), { out: idx, corpusName: 'old', workers: 0 });
      // Leave `freeMb` MiB free.
      const avail = Number(execFileSync('df', ['-B1K', '--output=avail', mnt], { encoding: 'utf8' }).trim().split('\n').pop());
      execFileSync('dd', ['if=/dev/zero', `of=${join(mnt, 'filler')}`, 'bs=1K', `count=${avail - freeMb * 1024}`], { stdio: 'ignore' });
      const r = await cliChild(['index', 'build', corpus, '--out', idx, '--workers', '2'], { timeoutMs: 90_000 });
      expect(r.signal).toBeNull(); // not killed by the timeout: it ended by itself
      expect(r.ms).toBeLessThan(60_000);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /\[error\] cannot build the index \S+: (build worker \d failed: )?ENOSPC: no space left on device.*; the index already at \S+ is intact/,
      );
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(readdirSync(mnt).sort()).toEqual(['filler', 'idx']);
      await expectOldIndex(idx);
    },
    120_000,
  );
});

describe.skipIf(!existsSync('/dev/full'))('a worker whose segment spill fails with ENOSPC (segment files linked to /dev/full)', () => {
  it('the build rejects with the worker ENOSPC error, naming the index dir and saying the previous one is intact, instead of waiting forever; it is untouched', async () => {
    const out = join(tmp.dir, 'devfull-idx');
    await buildIndex(fromArray(OLD), { out, corpusName: 'old', workers: 0 });
    const tmpDir = `${out}.tmp-${process.pid}`;
    let linked = false;
    const passages = Array.from({ length: 3000 }, (_, i) => ({
      id: `n${i}`,
      text: `replacement passage ${i} about covenants and easements ${i % 97}`,
      source: 'new',
    }));
    const build = buildIndex(fromArray(passages), {
      out,
      corpusName: 'new',
      workers: 2,
      batchPassages: 500,
      onProgress: () => {
        if (linked) return;
        linked = true;
        // Each worker spills its one segment at finish, to segments/w<i>-0000.seg: make those writes fail.
        for (const w of ['w0', 'w1']) symlinkSync('/dev/full', join(tmpDir, 'segments', `${w}-0000.seg`));
      },
    });
    const outcome = await Promise.race([
      build.then(
        () => 'built',
        (e: Error) => e,
      ),
      new Promise<string>((r) => setTimeout(() => r('still waiting after 30 s'), 30_000)),
    ]);
    expect(outcome).toBeInstanceOf(Error);
    // the index dir named, and that the previous index is intact (before: only "build worker 0 failed: ENOSPC: …")
    expect((outcome as Error).message).toMatch(
      new RegExp(
        `^cannot build the index ${out}: build worker \\d failed: ENOSPC: no space left on device, write; the index already at ${out} is intact \\(the new one was built beside it and not swapped in\\)`,
      ),
    );
    expect((outcome as NodeJS.ErrnoException).code).toBe('INDEX_WRITE_FAILED');
    await expectOldIndex(out);
    // Everything the build made is gone; the two links it did not make are kept.
    expect(readdirSync(join(tmpDir, 'segments')).sort()).toEqual(['w0-0000.seg', 'w1-0000.seg']);
    expect(readdirSync(tmpDir).sort()).toEqual(['.lexcase-owner', 'segments']);
    expect(existsSync(`${out}.lock`)).toBe(false);
  }, 60_000);
});
