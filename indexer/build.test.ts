/** The streaming build: spilled segments, worker threads and in-memory builds give the same bytes. */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex, type BuildOptions } from './build.js';
import { fromArray, tempDir } from './build-test-helpers.js';
import { readManifest } from './manifest.js';
import { SPARSE_FILES } from './sparse/format.js';
import { DOCSTORE_FILES } from './docstore-writer.js';
import { openDocStore } from './docstore.js';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';
import type { Passage } from '../corpora/types.js';
import { LEGAL_CORPUS_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';

const tmp = tempDir('lexcase-build-');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

// Real legal text: the first 400 passages of the bundled legal corpus.
const REAL: Passage[] = bundledLines(LEGAL_CORPUS_PASSAGES)
  .slice(0, 400)
  .map((l) => JSON.parse(l) as { id: string; text: string; title?: string; doc_id?: string })
  .map((r) => ({ id: r.id, text: r.text, title: r.title, docId: r.doc_id, source: 'legal_corpus' }));

const dataFiles = [
  ...Object.values(SPARSE_FILES),
  `${DOCSTORE_FILES.ids}.bin`,
  `${DOCSTORE_FILES.text}.dfl`,
  `${DOCSTORE_FILES.text}.blk`,
  `${DOCSTORE_FILES.text}.off`,
];
const digest = (dir: string) =>
  Object.fromEntries(
    dataFiles.map((f) => [
      f,
      createHash('sha256')
        .update(readFileSync(join(dir, f)))
        .digest('hex'),
    ]),
  );

async function build(name: string, opts: Partial<BuildOptions>): Promise<string> {
  const out = join(tmp.dir, name);
  await buildIndex(fromArray(REAL), { out, corpusName: 'legal_corpus', ...opts });
  return out;
}

describe('buildIndex', () => {
  it('spilling tiny segments and merging gives byte-identical files to one in-memory segment', async () => {
    const mem = await build('mem', { workers: 0 });
    const spill = await build('spill', { workers: 0, segmentPostings: 500, batchPassages: 7 });
    expect((await readManifest(mem)).sparse!.segments).toBe(1);
    expect((await readManifest(spill)).sparse!.segments).toBeGreaterThan(20);
    expect(digest(spill)).toEqual(digest(mem));
  });

  it('two worker threads give byte-identical files to a single-thread build', async () => {
    const single = await build('single', { workers: 0 });
    const workers = await build('workers', { workers: 2, segmentPostings: 3000, batchPassages: 13 });
    expect((await readManifest(workers)).sparse!.segments).toBeGreaterThan(2);
    expect(digest(workers)).toEqual(digest(single));
    const a = await (await openRetriever(single, 'bm25')).search('trespass damages land', { k: 20 });
    const b = await (await openRetriever(workers, 'bm25')).search('trespass damages land', { k: 20 });
    expect(b).toEqual(a);
    expect(a.length).toBe(20);
  });

  it('writes a manifest with analyzer, corpus stats, methods and true checksums; no temp files remain', async () => {
    const dir = await build('manifest', { workers: 0, analyzer: { stemmer: 'snowball' }, onProgress: () => undefined });
    const m = await readManifest(dir);
    expect(m.analyzer).toEqual({ lowercase: true, stopwords: 'english', stemmer: 'snowball', minTokenLength: 1 });
    expect(m.methods).toEqual(['bm25', 'qld']);
    expect(m.corpus).toMatchObject({ name: 'legal_corpus', passages: 400, sources: { legal_corpus: 400 } });
    expect(m.corpus.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(m.sparse).toMatchObject({ format: 'lexcase-sparse', version: 1, documents: 400 });
    for (const [file, sum] of Object.entries(m.checksums)) {
      expect(
        createHash('sha256')
          .update(readFileSync(join(dir, file)))
          .digest('hex'),
        file,
      ).toBe(sum);
    }
    expect(Object.keys(m.checksums)).toEqual(expect.arrayContaining(dataFiles));
    expect(existsSync(join(dir, 'segments'))).toBe(false);
    expect(readdirSync(tmp.dir).filter((n) => n.includes('.tmp-') || n.includes('.old-'))).toEqual([]);
  });

  it('rebuilding over an existing index replaces it; a failed rebuild leaves the old one intact', async () => {
    const out = await build('replace', { workers: 0 });
    await buildIndex(fromArray(REAL.slice(0, 50)), { out, corpusName: 'small', workers: 0 });
    expect((await readManifest(out)).corpus.passages).toBe(50);
    const failing = async function* () {
      yield REAL[0];
      yield REAL[0];
    };
    await expect(buildIndex(failing(), { out, corpusName: 'dupes', workers: 0 })).rejects.toThrow(/duplicate passage id/);
    expect((await readManifest(out)).corpus.passages).toBe(50);
    expect((await (await openRetriever(out, 'bm25')).search(REAL[3].text, { k: 1 }))[0].id).toBe(REAL[3].id);
    expect(readdirSync(tmp.dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('an aborted build throws and leaves nothing behind', async () => {
    const ctl = new AbortController();
    const out = join(tmp.dir, 'aborted');
    const p = buildIndex(fromArray(REAL), {
      out,
      corpusName: 'x',
      workers: 0,
      batchPassages: 10,
      signal: ctl.signal,
      onProgress: (n) => n >= 100 && ctl.abort(),
    });
    await expect(p).rejects.toThrow();
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(tmp.dir).filter((n) => n.startsWith('aborted'))).toEqual([]);
  });

  it('the doc store streams every passage back in order across read blocks, and gets by id', async () => {
    const many: Passage[] = Array.from({ length: 2500 }, (_, i) => ({
      id: `p${i}`,
      text: i % 10 ? `passage ${i} é` : '',
      title: i % 3 ? undefined : `t${i}`,
      docId: i % 2 ? `doc${i >> 4}` : undefined,
      source: `s${i % 4}`,
    }));
    const out = join(tmp.dir, 'many');
    await buildIndex(fromArray(many), { out, corpusName: 'many', workers: 0 });
    const ds = await openDocStore(out);
    const back: Passage[] = [];
    for await (const p of ds.entries()) back.push(p);
    expect(back).toEqual(many.map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined))));
    expect(await ds.get('p2499')).toEqual(back[2499]);
    expect(ds.size).toBe(2500);
    await ds.close();
  });

  it('a corpus error midway through a worker build propagates unchanged and leaves nothing behind', async () => {
    const out = join(tmp.dir, 'loader-error');
    async function* broken() {
      for (let i = 0; i < 250; i++) yield REAL[i];
      throw new Error('corpus.jsonl:251: unexpected token');
    }
    await expect(buildIndex(broken(), { out, corpusName: 'corpus.jsonl', workers: 2, batchPassages: 20 })).rejects.toThrow(
      'corpus.jsonl:251: unexpected token',
    );
    expect(readdirSync(tmp.dir).filter((n) => n.startsWith('loader-error'))).toEqual([]);
  });
});
