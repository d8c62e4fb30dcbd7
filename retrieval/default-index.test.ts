import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readManifest } from '../indexer/manifest.js';
import { ensureDefaultIndex } from './default-index.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-default-index-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('two callers that find the default index absent at once: one builds it, the other waits for that build and opens it (no LOCKED)', async () => {
  const dir = join(root, '.lexcase', 'demo', 'index');
  const said: string[][] = [[], []];
  const [a, b] = await Promise.all([ensureDefaultIndex(dir, (l) => said[0].push(l), 20), ensureDefaultIndex(dir, (l) => said[1].push(l), 20)]);
  expect([a, b]).toEqual([dir, dir]);
  expect((await readManifest(dir)).corpus.passages).toBeGreaterThan(1000);
  // exactly one of them waited, and said so
  const waited = said.filter((s) => s.some((l) => l.startsWith('waiting for another lexcase process that is building the default index')));
  expect(waited).toHaveLength(1);
  // a third caller finds it built and says nothing
  const third: string[] = [];
  expect(await ensureDefaultIndex(dir, (l) => third.push(l))).toBe(dir);
  expect(third).toEqual([]);
}, 180_000);
