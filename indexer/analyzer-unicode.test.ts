/**
 * An index records the Unicode version of the character data its analyzer used (manifest
 * `analyzerUnicode`), the lucene preset's (Intl.Segmenter's word breaks) as lexcase's own
 * analyzer's; opening one built under another Unicode version warns once, naming both versions,
 * since a query word holding a character assigned in between is split otherwise than in the index.
 * Before, nothing was recorded and an index opened under a Node of another Unicode version was
 * searched with no word of it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import { loadPassages } from '../corpora/registry.js';
import type { Passage } from '../corpora/types.js';
import { closeSparseIndexes } from '../retrieval/open.js';
import { openIndex } from '../retrieval/open-index.js';
import { buildIndex } from './build.js';
import { manifestSeal } from './manifest.js';

let dir: string;
const passages: Passage[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-analyzer-unicode-'));
  for await (const p of loadPassages('barexam')) if (passages.push(p) >= 200) break;
});

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  await closeSparseIndexes();
  await rm(dir, { recursive: true, force: true });
});

async function build(name: string, analyzer?: { preset: 'lucene' }): Promise<string> {
  const out = join(dir, name);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out, corpusName: 'barexam', workers: 0, ...(analyzer ? { analyzer } : {}) },
  );
  return out;
}

/** Rewrite the manifest as a build under another Node would have written it (resealed). */
async function recordUnicode(index: string, version: string | undefined): Promise<void> {
  const file = join(index, 'manifest.json');
  const { seal: _seal, ...body } = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  if (version === undefined) delete body.analyzerUnicode;
  else body.analyzerUnicode = version;
  await writeFile(file, JSON.stringify({ ...body, seal: manifestSeal(body) }, null, 2));
}

it("records the Unicode version of this Node's character data for the lucene analyzer and lexcase's", async () => {
  for (const [name, analyzer] of [
    ['lucene', { preset: 'lucene' as const }],
    ['lexcase', undefined],
  ] as const) {
    const index = await build(`rec-${name}`, analyzer);
    const m = JSON.parse(await readFile(join(index, 'manifest.json'), 'utf8')) as { analyzerUnicode?: string; analyzer: { preset?: string } };
    expect(m.analyzer.preset).toBe(analyzer?.preset);
    expect(m.analyzerUnicode).toBe(process.versions.unicode);
    const warn = vi.spyOn(log, 'warn');
    const ix = await openIndex(index);
    await (await ix.retriever('bm25')).search('hearsay');
    await ix.close();
    expect(warn.mock.calls.flat().join('\n')).not.toMatch(/Unicode/);
  }
}, 120_000);

it('a lucene-analyzer index built under another Unicode version warns once on open, naming both versions; an older index without the field does not', async () => {
  const index = await build('other', { preset: 'lucene' });
  await recordUnicode(index, '9.0');
  const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
  const ix = await openIndex(index);
  const hits = await (await ix.retriever('bm25')).search('hearsay statement');
  await ix.close();
  expect(hits.length).toBeGreaterThan(0);
  const unicode = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('Unicode'));
  expect(unicode).toEqual([
    `index ${index}: its terms were made under Unicode 9.0 and this Node has Unicode ${process.versions.unicode} (the lucene analyzer's word breaks follow Node's Unicode data): a query word with a character assigned between the two versions is split differently than in the index; rebuild the index under this Node to match`,
  ]);

  const older = await build('older', { preset: 'lucene' });
  await recordUnicode(older, undefined);
  warn.mockClear();
  const ox = await openIndex(older);
  await (await ox.retriever('qld')).search('hearsay');
  await ox.close();
  expect(warn.mock.calls.flat().join('\n')).not.toMatch(/Unicode/);
}, 120_000);
