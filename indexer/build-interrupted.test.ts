/**
 * SIGTERM or SIGINT during a build (as `lexcase index build` handles them): the build stops its
 * workers, removes its temp dir and the process exits non-zero; the previous index is untouched.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildIndex } from './build.js';
import { fromArray, tempDir, texts } from './build-test-helpers.js';
import { readManifest } from './manifest.js';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';

const tmp = tempDir('lexcase-sigterm-');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

it.each(['SIGTERM', 'SIGINT'] as const)('%s: temp dir removed, exit code non-zero, previous index kept and searchable', async (sig) => {
  const out = join(tmp.dir, `idx-${sig}`);
  await buildIndex(fromArray(texts(['adverse possession requires hostile open use', 'easement by necessity', 'the rule against perpetuities'])), {
    out,
    corpusName: 'old',
    workers: 0,
  });

  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures/slow-build.ts'), out, 'signals'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await new Promise<void>((resolve, reject) => {
    let seen = 0;
    child.stdout.on('data', (d: Buffer) => {
      seen += (d.toString().match(/progress/g) ?? []).length;
      if (seen >= 5) resolve();
    });
    void exited.then((c) => reject(new Error(`child exited early (${c}): ${stderr}`)));
  });
  const tmpName = `idx-${sig}.tmp-${child.pid}`;
  expect(existsSync(join(tmp.dir, tmpName, 'docs'))).toBe(true);
  child.kill(sig);
  const code = await exited;
  expect(code).not.toBe(0);
  expect(code).not.toBeNull(); // it exited by itself after cleaning up, not killed by the signal
  expect(stderr).toContain(`index build interrupted by ${sig}`);
  expect(readdirSync(tmp.dir).filter((n) => n.startsWith(`idx-${sig}.`))).toEqual([]);
  expect((await readManifest(out)).corpus).toMatchObject({ name: 'old', passages: 3 });
  expect((await (await openRetriever(out, 'bm25')).search('easement necessity'))[0].id).toBe('d1');
});
