import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { indexCorpus } from '../indexer/index-corpus.js';
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

it('an index in the default dir built with another analyzer is rebuilt as the bundled one, saying why, not searched as the default index', async () => {
  const dir = join(root, 'other-analyzer', '.lexcase', 'demo', 'index');
  await indexCorpus('default', { out: dir, methods: ['bm25', 'qld'], analyzer: { stemmer: 'none', stopwords: 'none' }, workers: 0 });
  const said: string[] = [];
  expect(await ensureDefaultIndex(dir, (l) => said.push(l))).toBe(dir);
  expect(said).toEqual([
    `rebuilding the default index in ${dir}: the index there is not the bundled one (it was built with analyzer stopwords=none, stemmer=none, the default index's is stopwords=english, stemmer=porter)…`,
  ]);
  expect((await readManifest(dir)).analyzer).toMatchObject({ stopwords: 'english', stemmer: 'porter' });
  // the rebuilt one is what lexcase builds: used as it is, silently
  const again: string[] = [];
  expect(await ensureDefaultIndex(dir, (l) => again.push(l))).toBe(dir);
  expect(again).toEqual([]);
}, 180_000);

it('an index of another corpus in the default dir is rebuilt from the bundled default corpus', async () => {
  const dir = join(root, 'other-corpus', '.lexcase', 'demo', 'index');
  await indexCorpus('barexam', { out: dir, methods: ['bm25', 'qld'], workers: 0 });
  const said: string[] = [];
  await ensureDefaultIndex(dir, (l) => said.push(l));
  expect(said).toEqual([`rebuilding the default index in ${dir}: the index there is not the bundled one (it indexes corpus "barexam", not "default")…`]);
  expect((await readManifest(dir)).corpus.name).toBe('default');
}, 180_000);
