/** The demo's index step writes <dir>/index under the same rule as `index build --out`: a user's directory there is refused and kept. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildIndexStep } from './build-index-step.js';
import type { DemoContext } from './types.js';

const base = mkdtempSync(join(tmpdir(), 'lexcase-demo-out-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

it('refuses a <dir>/index that is not a lexcase index, with OUT_DIR_REFUSED, and keeps its files', async () => {
  const indexDir = join(base, 'index');
  mkdirSync(indexDir);
  writeFileSync(join(indexDir, 'thesis.txt'), 'keep me');
  const ctx = {
    dir: base,
    indexDir,
    corpus: 'barexam',
    indexMethods: ['bm25'],
    evalMethods: ['bm25'],
    dataset: 'barexam',
    split: 'val',
    splitSeed: 13,
    seed: 1,
    iterations: 10,
    rebuild: false,
    say: () => undefined,
    sections: [],
    data: {},
  } as DemoContext;
  await expect(buildIndexStep.run(ctx)).rejects.toMatchObject({
    code: 'OUT_DIR_REFUSED',
    message: expect.stringMatching(/index: it is a non-empty directory that is not a lexcase index/),
  });
  expect(readFileSync(join(indexDir, 'thesis.txt'), 'utf8')).toBe('keep me');
  expect(readdirSync(base)).toEqual(['index']);
});
