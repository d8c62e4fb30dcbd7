/**
 * buildIndex as a library user calls it: an array or any (async) iterable of {id, text} with no
 * `source` and no `corpusName`, and the root cause of "incompatible … rebuild" after such a call.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages } from '../corpora/registry.js';
import { openRetriever, closeSparseIndexes } from '../retrieval/open.js';
import { buildIndex } from './build.js';
import { openDocStore } from './docstore.js';
import { readManifest, writeManifest } from './manifest.js';
import { tempDir } from './build-test-helpers.js';

const tmp = tempDir('lexcase-build-input-');
/** Bundled Bar Exam QA passages, stripped to what a user's own records carry: id and text. */
let plain: Array<{ id: string; text: string }> = [];

beforeAll(async () => {
  for await (const p of loadPassages('barexam')) {
    plain.push({ id: p.id, text: p.text });
    if (plain.length === 300) break;
  }
});
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { code?: string; message: string }) => e,
  );

describe('buildIndex(passages, { out }) for library users', () => {
  it('takes a plain array of {id, text}: corpus name = the index dir name, source = the corpus name, searchable at once', async () => {
    const out = join(tmp.dir, 'my-cases');
    const manifest = await buildIndex(plain, { out, workers: 0 });
    expect(manifest.corpus).toMatchObject({ name: 'my-cases', passages: 300, sources: { 'my-cases': 300 } });
    expect((await readManifest(out)).corpus.name).toBe('my-cases');
    const target = plain[137];
    const hits = await (await openRetriever(out, 'bm25')).search(target.text, { k: 3 });
    expect(hits[0].id).toBe(target.id);
    const docs = await openDocStore(out);
    expect(await docs.get(target.id)).toEqual({ id: target.id, text: target.text, source: 'my-cases' });
    await docs.close();
  });

  it('gives the same corpus checksum for an array, a sync generator and an async generator of the same passages', async () => {
    function* sync() {
      yield* plain;
    }
    async function* asyncGen() {
      for (const p of plain) yield p;
    }
    const sums = [];
    for (const [name, input] of [
      ['array', plain],
      ['sync', sync()],
      ['async', asyncGen()],
    ] as const) {
      sums.push((await buildIndex(input, { out: join(tmp.dir, `same-${name}`), corpusName: 'same', workers: 0 })).corpus.checksum);
    }
    expect(new Set(sums).size).toBe(1);
  });

  it('counts passages of a source named __proto__ in the manifest (written and read back) like any other source', async () => {
    const out = join(tmp.dir, 'proto-source');
    const input = [
      { id: 'a', text: 'adverse possession', source: '__proto__' },
      { id: 'b', text: 'hearsay', source: '__proto__' },
      { id: 'c', text: 'due process', source: 'cap' },
    ];
    const m = await buildIndex(input, { out, corpusName: 'protos', workers: 0 });
    const want = JSON.parse('{"__proto__":2,"cap":1}');
    expect(JSON.stringify(m.corpus.sources)).toBe(JSON.stringify(want));
    expect(JSON.stringify((await readManifest(out)).corpus.sources)).toBe(JSON.stringify(want));
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).corpus.sources).toEqual(want);
  });

  it('keeps a source given on a passage, and ignores extra fields of the user record', async () => {
    const out = join(tmp.dir, 'mixed');
    const input = [
      { id: 'a', text: 'adverse possession must be hostile', source: 'casebook/property', court: 'N.Y.' },
      { id: 'b', text: 'hearsay is an out-of-court statement', year: 1975 },
    ];
    const m = await buildIndex(input, { out, corpusName: 'mine', workers: 0 });
    expect(m.corpus.sources).toEqual({ 'casebook/property': 1, mine: 1 });
    const docs = await openDocStore(out);
    expect(await docs.get('a')).toEqual({ id: 'a', text: 'adverse possession must be hostile', source: 'casebook/property' });
    await docs.close();
  });

  it('root cause: an index built from JS with corpusName undefined opens (it used to read back as "incompatible")', async () => {
    const out = join(tmp.dir, 'from-js');
    // A plain-JS caller: the option present but undefined, as `{ out, corpusName: opts.name }` gives.
    const jsOptions = JSON.parse('{}') as { corpusName?: string };
    await buildIndex(plain.slice(0, 20), { out, corpusName: jsOptions.corpusName, workers: 0 });
    expect((await readManifest(out)).corpus.name).toBe(basename(out));
    expect(await (await openRetriever(out, 'qld')).search('hearsay', { k: 1 })).toHaveLength(1);
  });

  it('root cause: writeManifest refuses a manifest its own reader would reject, and leaves the old one in place', async () => {
    const out = join(tmp.dir, 'from-js');
    const before = readFileSync(join(out, 'manifest.json'), 'utf8');
    const good = await readManifest(out);
    const bad = { ...good, corpus: { ...good.corpus, name: undefined as unknown as string } };
    const e = await errorOf(writeManifest(out, bad));
    expect(e).toMatchObject({ code: 'INVALID_INPUT' });
    expect(e!.message).toMatch(/manifest\.corpus\.name/);
    expect(readFileSync(join(out, 'manifest.json'), 'utf8')).toBe(before);
  });

  it('names the argument at fault: passages not iterable, out missing, corpusName not a string', async () => {
    const notIterable = await errorOf(buildIndex({ id: 'a', text: 'x' } as never, { out: join(tmp.dir, 'x1') }));
    expect(notIterable).toMatchObject({ code: 'USAGE' });
    expect(notIterable!.message).toMatch(/passages must be an array or an \(async\) iterable.*got object/);
    expect(await errorOf(buildIndex('a string' as never, { out: join(tmp.dir, 'x2') }))).toMatchObject({ code: 'USAGE' });
    const noOut = await errorOf(buildIndex(plain, {} as never));
    expect(noOut).toMatchObject({ code: 'INVALID_INPUT' });
    expect(noOut!.message).toMatch(/"out"/);
    const badName = await errorOf(buildIndex(plain, { out: join(tmp.dir, 'x3'), corpusName: 42 as never }));
    expect(badName!.message).toMatch(/corpusName.*42/);
  });
});
