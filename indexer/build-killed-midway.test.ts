/** Killing a build midway (SIGKILL, no cleanup) leaves the previous index readable and searchable. */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildIndex } from './build.js';
import { fromArray, tempDir, texts } from './build-test-helpers.js';
import { readManifest } from './manifest.js';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';

const tmp = tempDir('lexcase-kill-');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

it('a build killed midway leaves the previous index readable; the next build clears its temp dir', async () => {
  const out = join(tmp.dir, 'idx');
  await buildIndex(fromArray(texts(['adverse possession requires hostile open use', 'easement by necessity', 'the rule against perpetuities'])), {
    out,
    corpusName: 'old',
    workers: 0,
  });

  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures/slow-build.ts'), out], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  // Wait until the child has written a good part of its new index, then kill it without warning.
  await new Promise<void>((resolve, reject) => {
    let seen = 0;
    child.stdout.on('data', (d: Buffer) => {
      seen += (d.toString().match(/progress/g) ?? []).length;
      if (seen >= 5) resolve();
    });
    child.on('exit', (c) => reject(new Error(`child exited early (${c}): ${stderr}`)));
  });
  const tmpDirs = readdirSync(tmp.dir).filter((n) => n.startsWith('idx.tmp-'));
  expect(tmpDirs).toEqual([`idx.tmp-${child.pid}`]);
  expect(existsSync(join(tmp.dir, tmpDirs[0], 'docs/text.off'))).toBe(true);
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));

  const m = await readManifest(out);
  expect(m.corpus).toMatchObject({ name: 'old', passages: 3 });
  const hits = await (await openRetriever(out, 'bm25')).search('easement necessity');
  expect(hits[0].id).toBe('d1');

  await buildIndex(fromArray(texts(['a fresh index', 'after the crash', 'third'])), { out, corpusName: 'next', workers: 0 });
  expect((await readManifest(out)).corpus.name).toBe('next');
  expect(readdirSync(tmp.dir).filter((n) => n.startsWith('idx.'))).toEqual([]);
});
