/**
 * An index build replaces only what it may: a new or empty dir, or a lexcase index holding nothing
 * else. A user's directory, the working directory, the input corpus (or a folder holding it) are
 * refused with OUT_DIR_REFUSED before anything is written, and every file in them survives.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LexcaseError } from '../core/errors.js';
import { indexCorpus } from './index-corpus.js';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';
import { buildIndex } from './build.js';
import { fromArray, tempDir, texts } from './build-test-helpers.js';
import { readManifest } from './manifest.js';
import { addDenseIndex } from './dense/add-dense.js';
import { runCli } from '../tests/support/run-cli.js';

const tmp = tempDir('lexcase-outdir-');
const cwd = process.cwd();
afterEach(() => process.chdir(cwd));
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

const PASSAGES = texts(['adverse possession requires open and hostile use', 'an easement by necessity', 'the rule against perpetuities']);
const JSONL = PASSAGES.map((p) => JSON.stringify({ id: p.id, text: p.text })).join('\n') + '\n';

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(LexcaseError);
    expect((e as LexcaseError).code).toBe('OUT_DIR_REFUSED');
    return (e as Error).message;
  }
  throw new Error('expected OUT_DIR_REFUSED');
}

/** A fresh case dir with a user's directory p/ holding thesis.txt. */
function userDir(name: string): { base: string; p: string; thesis: string } {
  const base = join(tmp.dir, name);
  const p = join(base, 'p');
  mkdirSync(p, { recursive: true });
  const thesis = join(p, 'thesis.txt');
  writeFileSync(thesis, 'keep me');
  return { base, p, thesis };
}

const noTemps = (base: string) => expect(readdirSync(base).filter((n) => /\.(tmp|old)-\d+$/.test(n))).toEqual([]);

describe('what --out may replace', () => {
  it('a non-empty directory that is not an index is refused; thesis.txt survives', async () => {
    const { base, p, thesis } = userDir('user');
    expect(await refusal(buildIndex(fromArray(PASSAGES), { out: p, corpusName: 'x', workers: 0 }))).toMatch(
      /refusing to write an index to .*p: it is a non-empty directory that is not a lexcase index \(no manifest.json; it holds thesis.txt\)/,
    );
    expect(readFileSync(thesis, 'utf8')).toBe('keep me');
    noTemps(base);
  });

  it('the working directory (--out .) and its parents are refused, through the CLI too', async () => {
    const { base, p, thesis } = userDir('cwd');
    writeFileSync(join(base, 'corpus.jsonl'), JSONL);
    process.chdir(p);
    expect(await refusal(buildIndex(fromArray(PASSAGES), { out: '.', corpusName: 'x', workers: 0 }))).toMatch(/it is the working directory/);
    expect(await refusal(buildIndex(fromArray(PASSAGES), { out: '..', corpusName: 'x', workers: 0 }))).toMatch(/it contains the working directory/);
    const r = await runCli(['index', 'build', '../corpus.jsonl', '--out', '.', '--workers', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refusing to write an index to \.: it is the working directory/);
    expect(r.stderr).not.toMatch(/ at .*\.ts:\d+/);
    expect(readFileSync(thesis, 'utf8')).toBe('keep me');
    expect(readdirSync(base).sort()).toEqual(['corpus.jsonl', 'p']);
  });

  it('the input corpus itself, or a folder holding it, is refused; an index inside the corpus folder is fine', async () => {
    const base = join(tmp.dir, 'input');
    const corp = join(base, 'corp');
    mkdirSync(corp, { recursive: true });
    const file = join(corp, 'passages.jsonl');
    writeFileSync(file, JSONL);
    expect(await refusal(indexCorpus(file, { out: file, workers: 0 }))).toMatch(/it is the input corpus itself/);
    expect(await refusal(indexCorpus(corp, { out: corp, workers: 0 }))).toMatch(/it is the input corpus itself/);
    expect(await refusal(indexCorpus(file, { out: corp, workers: 0 }))).toMatch(/it contains the input corpus/);
    expect(await refusal(indexCorpus(file, { out: base, workers: 0 }))).toMatch(/it contains the input corpus/);
    expect(readFileSync(file, 'utf8')).toBe(JSONL);
    const m = await indexCorpus(corp, { out: join(corp, 'index'), workers: 0 });
    expect(m.corpus.passages).toBe(3);
    expect(readdirSync(corp).sort()).toEqual(['index', 'passages.jsonl']);
    // Through a symlink to the corpus folder: still the input.
    symlinkSync(corp, join(base, 'link'));
    expect(await refusal(indexCorpus(file, { out: join(base, 'link'), workers: 0 }))).toMatch(/it contains the input corpus/);
  });

  it('an existing lexcase index is replaced; one that also holds a user file is refused', async () => {
    const base = join(tmp.dir, 'replace');
    const out = join(base, 'idx');
    await buildIndex(fromArray(PASSAGES), { out, corpusName: 'first', workers: 0 });
    await buildIndex(fromArray(texts(['a second corpus', 'replaces the first'])), { out, corpusName: 'second', workers: 0 });
    expect((await readManifest(out)).corpus).toMatchObject({ name: 'second', passages: 2 });
    noTemps(base);
    writeFileSync(join(out, 'notes.txt'), 'mine');
    expect(await refusal(buildIndex(fromArray(PASSAGES), { out, corpusName: 'third', workers: 0 }))).toMatch(
      /a lexcase index that also holds files that are not part of it \(notes.txt\)/,
    );
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine');
    expect((await readManifest(out)).corpus.name).toBe('second');
  });

  it('a file, a dir whose manifest.json is not an index manifest, and an empty dir', async () => {
    const base = join(tmp.dir, 'kinds');
    mkdirSync(base);
    const file = join(base, 'report.md');
    writeFileSync(file, '# mine');
    expect(await refusal(buildIndex(fromArray(PASSAGES), { out: file, corpusName: 'x', workers: 0 }))).toMatch(/it is a file, not a directory/);
    const npm = join(base, 'pkg');
    mkdirSync(npm);
    writeFileSync(join(npm, 'manifest.json'), JSON.stringify({ name: 'some-app', version: '1.0.0' }));
    expect(await refusal(buildIndex(fromArray(PASSAGES), { out: npm, corpusName: 'x', workers: 0 }))).toMatch(
      /its manifest.json is not a readable lexcase index manifest/,
    );
    expect(existsSync(join(npm, 'manifest.json'))).toBe(true);
    const empty = join(base, 'empty');
    mkdirSync(empty);
    await buildIndex(fromArray(PASSAGES), { out: empty, corpusName: 'x', workers: 0 });
    expect((await (await openRetriever(empty, 'bm25')).search('easement'))[0].id).toBe('d1');
    expect(readFileSync(file, 'utf8')).toBe('# mine');
  });

  it('a symlink to an index: the index it points to is replaced, the link stays', async () => {
    const base = join(tmp.dir, 'symlink');
    const real = join(base, 'real-idx');
    await buildIndex(fromArray(PASSAGES), { out: real, corpusName: 'first', workers: 0 });
    symlinkSync(real, join(base, 'current'));
    await buildIndex(fromArray(texts(['replaced through the link'])), { out: join(base, 'current'), corpusName: 'second', workers: 0 });
    expect((await readManifest(real)).corpus.name).toBe('second');
    expect((await readManifest(join(base, 'current'))).corpus.name).toBe('second');
    noTemps(base);
  });

  it('index dense writes only into an existing index: a user dir is INDEX_MISSING and untouched', async () => {
    const { p, thesis } = userDir('dense');
    await expect(addDenseIndex(p)).rejects.toMatchObject({ code: 'INDEX_MISSING' });
    expect(readdirSync(p)).toEqual(['thesis.txt']);
    expect(readFileSync(thesis, 'utf8')).toBe('keep me');
  });
});
