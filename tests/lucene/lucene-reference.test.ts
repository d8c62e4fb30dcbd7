/**
 * lexcase's `--analyzer lucene --scorer lucene` against Lucene itself (Debian's liblucene8-java —
 * Lucene 8.8.1 in Debian 12, its jars named 8.7.0 — with a JDK; the version is printed): LuceneReference.java beside this file is compiled here, indexes the
 * bundled Bar Exam QA gold passages (1,149) with Anserini's analyzer chain, runs 60 bundled
 * questions as Anserini's boosted bag-of-words queries with BM25Similarity and
 * LMDirichletSimilarity, and prints each query's top 100 (ids, float scores). lexcase must give the
 * identical top-100 ids for ≥ 98% of the queries and scores within 1e-4 relative; the analyzer must
 * give Lucene's terms for every bundled text, the tokenizer Lucene's tokens for a battery of tricky
 * strings (but the known differences listed below), and the 1-byte norms Lucene's table.
 *
 * RM3 (`rm3: true` over bm25 and qld, retrieval/rm3.ts) against LuceneReference's `rm3`: Anserini's
 * Rm3Reranker algorithm on Lucene's own term vectors and BoostQuery scoring — every query's expanded
 * terms and float weights must be Lucene's bit for bit, its top-100 ids identical for ≥ 98% of the
 * queries and scores within 1e-4 relative.
 *
 * With LEXCASE_CACM=FOLDER (the user's CACM, as `reproduce anserini-cacm --data`; not bundled), the
 * same comparison on CACM's 3,204 documents and 64 topics at top 1,000 (BM25, QL and both with RM3:
 * every id and float score Lucene's), and the index statistics against Anserini's published ones.
 *
 * Skipped, with the reason printed, where java/javac or the Lucene 8 jars are absent (.ci/run
 * installs liblucene8-java). LEXCASE_LUCENE_JARS (a classpath) overrides the jar lookup.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../indexer/analyzer.js';
import { buildIndex } from '../../indexer/build.js';
import { fromArray, tempDir } from '../../indexer/build-test-helpers.js';
import { scanStandard } from '../../indexer/lucene-tokenizer.js';
import { locateCacm, readCacmDocuments, readCacmTopics } from '../../corpora/cacm.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import type { Rm3Retriever } from '../../retrieval/rm3.js';
import { byte4ToInt, intToByte4 } from '../../retrieval/sparse/lucene-scorer.js';
import { createRng } from '../../core/rng.js';
import { PACKAGE_ROOT } from '../../core/version.js';
import { BAREXAM_PASSAGES, BAREXAM_QA, LEGAL_CORPUS_PASSAGES, bundledLines } from '../support/bundled-data.js';
import { TOKENIZER_BATTERY, KNOWN_TOKENIZER_DIFFERENCES } from './tokenizer-battery.js';

const JAVA_SOURCE = join(PACKAGE_ROOT, 'tests', 'lucene', 'LuceneReference.java');

/** The Lucene 8 classpath (core + analyzers-common), or why there is none. */
function luceneClasspath(): { cp?: string; reason?: string } {
  const env = process.env.LEXCASE_LUCENE_JARS;
  if (env) return { cp: env };
  for (const tool of ['java', 'javac'])
    if (spawnSync(tool, ['-version'], { stdio: 'ignore' }).error) return { reason: `${tool} is not installed (a JDK ≥ 11 is needed)` };
  const dir = '/usr/share/java';
  const jars = existsSync(dir) ? readdirSync(dir) : [];
  const pick = (prefix: string) =>
    jars
      .filter((f) => new RegExp(`^${prefix}-8[.\\d]*\\.jar$`).test(f))
      .sort()
      .pop();
  const core = pick('lucene-core');
  const analyzers = pick('lucene-analyzers-common');
  if (!core || !analyzers) return { reason: `the Lucene 8 jars are not in ${dir} (apt-get install liblucene8-java, or set LEXCASE_LUCENE_JARS)` };
  return { cp: `${join(dir, core)}:${join(dir, analyzers)}` };
}

const { cp, reason } = luceneClasspath();
if (reason) console.log(`[lucene-reference] skipped: ${reason}`);

/** The user's CACM folder (as `reproduce anserini-cacm --data`) for the opt-in CACM comparison; CACM is not bundled (no licence to redistribute it). */
const CACM = process.env.LEXCASE_CACM;
if (cp && !CACM)
  console.log(
    "[lucene-reference] CACM comparison skipped: set LEXCASE_CACM to a folder with Anserini's cacm.tar.gz and topics.cacm.txt (not bundled; docs/reproductions.md)",
  );

/** Texts on one TSV line: \t \n \\ and \uXXXX for line/paragraph separators (LuceneReference.unescape). */
const esc = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/\t/g, '\\t')
    .replace(/\n/g, '\\n')
    .replace(/[\r\u2028\u2029\u0085]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const tmp = tempDir('lexcase-lucene-ref-');
let classes = '';

/**
 * The JVMs here are short (a second to a few each, ~10 of them): the client compiler alone and the
 * serial collector spend about half the CPU of the defaults (C2 and parallel GC threads) —
 * 62 → 37 s for this file on 2 cores. The compiler tier does not change
 * Java's IEEE float results, so the comparisons are the same.
 */
const JVM = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

function java(...args: string[]): void {
  execFileSync('java', [...JVM, '-cp', `${cp}:${classes}`, 'LuceneReference', ...args], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 300_000 });
}

function writeTsv(file: string, rows: [string, string][]): string {
  const path = join(tmp.dir, file);
  writeFileSync(path, rows.map(([id, text]) => `${id}\t${esc(text)}\n`).join(''));
  return path;
}

function readTsv(path: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const l of readFileSync(path, 'utf8').split('\n')) {
    if (!l) continue;
    const i = l.indexOf('\t');
    m.set(l.slice(0, i), l.slice(i + 1));
  }
  return m;
}

/** Lucene's top k (LuceneReference search) beside lexcase's on the index at `dir`, per query. */
async function compareSearch(
  docsFile: string,
  queries: [string, string][],
  dir: string,
  sim: string,
  method: string,
  opts: Record<string, unknown>,
  k: number,
) {
  const out = join(tmp.dir, `${method}-${sim.replace(/:/g, '_')}.tsv`);
  java('search', docsFile, writeTsv(`queries-${queries.length}.tsv`, queries), out, sim, String(k));
  const ref = new Map<string, { id: string; score: number }[]>();
  let stats = '';
  for (const l of readFileSync(out, 'utf8').split('\n')) {
    if (l.startsWith('#stats ')) stats = l.slice(7);
    if (!l || l.startsWith('#')) continue;
    const [qid, , id, , bits] = l.split('\t');
    const v = new DataView(new ArrayBuffer(4));
    v.setUint32(0, parseInt(bits, 16));
    if (!ref.has(qid)) ref.set(qid, []);
    ref.get(qid)!.push({ id, score: v.getFloat32(0) });
  }
  const r = await openRetriever(dir, method, opts);
  let identical = 0;
  let maxRel = 0;
  let scores = 0;
  let bitEqual = 0;
  for (const [qid, text] of queries) {
    const hits = await r.search(text, { k });
    const want = ref.get(qid) ?? [];
    if (JSON.stringify(hits.map((h) => h.id)) === JSON.stringify(want.map((w) => w.id))) identical++;
    const byId = new Map(want.map((w) => [w.id, w.score]));
    for (const h of hits) {
      const s = byId.get(h.id);
      if (s === undefined) continue;
      scores++;
      if (s === h.score) bitEqual++;
      maxRel = Math.max(maxRel, Math.abs(h.score - s) / Math.max(Math.abs(s), 1e-30));
    }
  }
  const line =
    `identical top-${k} ids for ${identical} of ${queries.length} queries (${((100 * identical) / queries.length).toFixed(1)}%); ` +
    `${scores} scores compared, ${bitEqual} bit-identical, max relative difference ${maxRel.toExponential(2)}`;
  return { identical, maxRel, scores, bitEqual, stats, line };
}

const floatOfHex = (h: string) => {
  const v = new DataView(new ArrayBuffer(4));
  v.setUint32(0, parseInt(h, 16));
  return v.getFloat32(0);
};

/** LuceneReference rm3 (Anserini's RM3 on Lucene's term vectors) beside lexcase's `rm3: true`, per query. */
async function compareRm3(docsFile: string, queries: [string, string][], dir: string, sim: string, method: string, opts: Record<string, unknown>, k: number) {
  const out = join(tmp.dir, `rm3-${method}-${sim.replace(/:/g, '_')}.tsv`);
  java('rm3', docsFile, writeTsv(`rm3-queries-${queries.length}.tsv`, queries), out, sim, String(k), '10', '10', '0.5');
  const terms = new Map<string, Map<string, number>>();
  const ranked = new Map<string, { id: string; score: number }[]>();
  for (const l of readFileSync(out, 'utf8').split('\n')) {
    const f = l.split('\t');
    if (f[0] === 'T') (terms.get(f[1]) ?? terms.set(f[1], new Map()).get(f[1])!).set(f[2], floatOfHex(f[3]));
    if (f[0] === 'R') (ranked.get(f[1]) ?? ranked.set(f[1], []).get(f[1])!).push({ id: f[3], score: floatOfHex(f[5]) });
  }
  const r = (await openRetriever(dir, method, { ...opts, rm3: true })) as Rm3Retriever;
  let sameTerms = 0;
  let identical = 0;
  let maxRel = 0;
  let scores = 0;
  let bitEqual = 0;
  let expansion = 0;
  for (const [qid, text] of queries) {
    const want = terms.get(qid) ?? new Map<string, number>();
    const got = (await r.expand(text)).terms;
    expansion += got.length;
    if (got.length === want.size && got.every((t) => want.get(t.term) === t.weight)) sameTerms++;
    const hits = await r.search(text, { k });
    const ref = ranked.get(qid) ?? [];
    if (JSON.stringify(hits.map((h) => h.id)) === JSON.stringify(ref.map((w) => w.id))) identical++;
    const byId = new Map(ref.map((w) => [w.id, w.score]));
    for (const h of hits) {
      const s = byId.get(h.id);
      if (s === undefined) continue;
      scores++;
      if (s === h.score) bitEqual++;
      maxRel = Math.max(maxRel, Math.abs(h.score - s) / Math.max(Math.abs(s), 1e-30));
    }
  }
  const line =
    `expanded queries (${(expansion / queries.length).toFixed(1)} terms each) bit-identical for ${sameTerms} of ${queries.length}; identical top-${k} ids for ${identical} (${((100 * identical) / queries.length).toFixed(1)}%); ` +
    `${scores} scores compared, ${bitEqual} bit-identical, max relative difference ${maxRel.toExponential(2)}`;
  return { sameTerms, identical, maxRel, scores, bitEqual, line };
}

describe.skipIf(!cp)('lexcase against Lucene 8 (liblucene8-java)', () => {
  beforeAll(() => {
    classes = join(tmp.dir, 'classes');
    mkdirSync(classes, { recursive: true });
    execFileSync('javac', [...JVM.map((o) => `-J${o}`), '-cp', cp!, '-d', classes, JAVA_SOURCE], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 180_000 });
    const version = execFileSync('java', [...JVM, '-cp', `${cp}:${classes}`, 'LuceneReference', 'version'], { encoding: 'utf8', timeout: 60_000 }).trim();
    console.log(`[lucene-reference] against Lucene ${version} (${cp})`);
    expect(version).toMatch(/^8\./);
  }, 240_000);
  afterAll(async () => {
    await closeSparseIndexes();
    tmp.cleanup();
  });

  it("1-byte norms: intToByte4 / byte4ToInt equal Lucene's SmallFloat on all 256 bytes and sample lengths", () => {
    const out = join(tmp.dir, 'norms.tsv');
    java('norms', out);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    let bytes = 0;
    for (const l of lines) {
      const f = l.split('\t');
      if (f[0] === 'enc') expect(intToByte4(Number(f[1]))).toBe(Number(f[2]));
      else {
        expect(byte4ToInt(Number(f[0]))).toBe(Number(f[1]));
        bytes++;
      }
    }
    expect(bytes).toBe(256);
  });

  it("StandardTokenizer: lexcase's tokens equal Lucene's on the tricky battery (but the listed known differences)", () => {
    const out = join(tmp.dir, 'tokens.tsv');
    java(
      'tokenize',
      writeTsv(
        'battery.tsv',
        TOKENIZER_BATTERY.map((s, i) => [String(i), s]),
      ),
      out,
    );
    const lucene = readTsv(out);
    const differ: string[] = [];
    TOKENIZER_BATTERY.forEach((s, i) => {
      const want = (lucene.get(String(i)) ?? '')
        .split('\u0002')
        .filter(Boolean)
        .map((t) => t.split('\u0001')[0]);
      const got: string[] = [];
      scanStandard(s, (t) => got.push(t));
      if (JSON.stringify(got) !== JSON.stringify(want)) differ.push(s);
    });
    console.log(
      `[lucene-reference] tokenizer: ${TOKENIZER_BATTERY.length - differ.length} of ${TOKENIZER_BATTERY.length} strings give Lucene's tokens; known differences: ${differ.map((s) => JSON.stringify(s)).join(', ') || 'none'}`,
    );
    expect(differ.filter((s) => !KNOWN_TOKENIZER_DIFFERENCES.includes(s))).toEqual([]);
  });

  it("analyzer: the lucene preset's terms equal Lucene's for every bundled text and 20,000 suffix-heavy words (Porter)", () => {
    const texts: [string, string][] = [];
    for (const f of [BAREXAM_PASSAGES, LEGAL_CORPUS_PASSAGES])
      for (const l of bundledLines(f)) if (l) texts.push([`p${texts.length}`, (JSON.parse(l) as { text: string }).text]);
    for (const l of bundledLines(BAREXAM_QA)) {
      if (!l) continue;
      const q = JSON.parse(l) as { prompt: string; question: string; choices: string[] };
      texts.push([`q${texts.length}`, [q.prompt, q.question, ...q.choices].join('\n')]);
    }
    // Words built from Porter's suffixes, so every rule and its edge cases (short stems, y, double consonants) are met.
    const rng = createRng(29);
    const suffixes = [
      'ational',
      'tional',
      'enci',
      'anci',
      'izer',
      'bli',
      'alli',
      'entli',
      'eli',
      'ousli',
      'ization',
      'ation',
      'ator',
      'alism',
      'iveness',
      'fulness',
      'ousness',
      'aliti',
      'iviti',
      'biliti',
      'logi',
      'icate',
      'ative',
      'alize',
      'iciti',
      'ical',
      'ful',
      'ness',
      'al',
      'ance',
      'ence',
      'er',
      'ic',
      'able',
      'ible',
      'ant',
      'ement',
      'ment',
      'ent',
      'ion',
      'ou',
      'ism',
      'ate',
      'iti',
      'ous',
      'ive',
      'ize',
      'sses',
      'ies',
      'ss',
      's',
      'eed',
      'ed',
      'ing',
      'y',
      'e',
      'll',
      'at',
      'bl',
      'iz',
      'yed',
      'ying',
    ];
    const letters = 'abcdefghijklmnopqrstuvwxyzaeiouyyss';
    const words = new Set<string>(suffixes);
    while (words.size < 20_000) {
      let w = '';
      for (let i = rng.int(0, 4); i > 0; i--) w += letters[rng.int(0, letters.length - 1)];
      words.add(w + suffixes[rng.int(0, suffixes.length - 1)] + (rng.int(0, 2) === 0 ? suffixes[rng.int(0, suffixes.length - 1)] : ''));
    }
    [...words].forEach((w, i) => texts.push([`w${i}`, w]));
    const out = join(tmp.dir, 'terms.tsv');
    java('analyze', writeTsv('texts.tsv', texts), out);
    const lucene = readTsv(out);
    const a = createAnalyzer({ preset: 'lucene' });
    const differ = texts.filter(([id, t]) => a.tokens(t).join(' ') !== lucene.get(id)).map(([id]) => id);
    console.log(`[lucene-reference] analyzer: ${texts.length - differ.length} of ${texts.length} texts give Lucene's terms`);
    expect(differ).toEqual([]);
  }, 240_000);

  it('search: top-100 ids identical for ≥ 98% of 60 queries over 1,149 passages, scores within 1e-4 relative (BM25, BM25 k1 1.2 b 0.75, LMDirichlet μ 1000)', async () => {
    const docs = bundledLines(BAREXAM_PASSAGES)
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; text: string });
    const queries = bundledLines(BAREXAM_QA)
      .filter(Boolean)
      .filter((_, i) => i % 20 === 0)
      .map((l) => JSON.parse(l) as { id: string; prompt: string; question: string })
      .map((q) => [q.id, `${q.prompt} ${q.question}`] as [string, string]);
    expect(docs.length).toBeGreaterThanOrEqual(1000);
    expect(queries.length).toBeGreaterThanOrEqual(50);
    const docsFile = writeTsv(
      'docs.tsv',
      docs.map((d) => [d.id, d.text]),
    );
    const dir = join(tmp.dir, 'index');
    await buildIndex(fromArray(docs.map((d) => ({ ...d, source: 'barexam' }))), {
      out: dir,
      corpusName: 'barexam',
      workers: 0,
      analyzer: { preset: 'lucene' },
    });
    for (const [sim, method, opts] of [
      ['bm25:0.9:0.4', 'bm25', { scorer: 'lucene' }],
      ['bm25:1.2:0.75', 'bm25', { scorer: 'lucene', k1: 1.2, b: 0.75 }],
      ['qld:1000', 'qld', { scorer: 'lucene', mu: 1000 }],
    ] as const) {
      const f = await compareSearch(docsFile, queries, dir, sim, method, opts, 100);
      console.log(`[lucene-reference] ${sim}: ${f.line}`);
      expect(f.identical / queries.length).toBeGreaterThanOrEqual(0.98);
      expect(f.maxRel).toBeLessThanOrEqual(1e-4);
      expect(f.scores).toBeGreaterThan(queries.length * 50);
    }
  }, 300_000);
  it("RM3: expanded queries = Lucene's (Anserini's RM3 on Lucene's term vectors) bit for bit for every query; top-100 ids identical for ≥ 98%, scores within 1e-4 (BM25, LMDirichlet μ 1000)", async () => {
    const docs = bundledLines(BAREXAM_PASSAGES)
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; text: string });
    const queries = bundledLines(BAREXAM_QA)
      .filter(Boolean)
      .filter((_, i) => i % 20 === 0)
      .map((l) => JSON.parse(l) as { id: string; prompt: string; question: string })
      .map((q) => [q.id, `${q.prompt} ${q.question}`] as [string, string]);
    const docsFile = writeTsv(
      'docs.tsv',
      docs.map((d) => [d.id, d.text]),
    );
    const dir = join(tmp.dir, 'index-rm3');
    await buildIndex(fromArray(docs.map((d) => ({ ...d, source: 'barexam' }))), {
      out: dir,
      corpusName: 'barexam',
      workers: 0,
      analyzer: { preset: 'lucene' },
    });
    for (const [sim, method, opts] of [
      ['bm25:0.9:0.4', 'bm25', { scorer: 'lucene' }],
      ['qld:1000', 'qld', { scorer: 'lucene', mu: 1000 }],
    ] as const) {
      const f = await compareRm3(docsFile, queries, dir, sim, method, opts, 100);
      console.log(`[lucene-reference] RM3 ${sim}: ${f.line}`);
      expect(f.sameTerms).toBe(queries.length);
      expect(f.identical / queries.length).toBeGreaterThanOrEqual(0.98);
      expect(f.maxRel).toBeLessThanOrEqual(1e-4);
      expect(f.scores).toBeGreaterThan(queries.length * 50);
    }
  }, 300_000);
  it.skipIf(!CACM)(
    "CACM (LEXCASE_CACM): index statistics = Anserini's published ones; top-1000 ids and float scores = Lucene's for all 64 topics (BM25 k1 0.9 b 0.4, LMDirichlet μ 1000, each also with RM3)",
    async () => {
      const files = locateCacm(CACM);
      const docs = readCacmDocuments(files.collection);
      const topics = readCacmTopics(files.topics).map((t) => [t.id, t.text] as [string, string]);
      const dir = join(tmp.dir, 'cacm-index');
      await buildIndex(fromArray(docs), { out: dir, corpusName: 'cacm', workers: 0, analyzer: { preset: 'lucene' } });
      const sparse = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { sparse: { documents: number; terms: number; totalTokens: number } })
        .sparse;
      console.log(
        `[lucene-reference] CACM index: ${sparse.documents} documents, ${sparse.terms} terms, ${sparse.totalTokens} tokens (Anserini's cacm.yaml: 3204, 14363, 320968)`,
      );
      // Anserini's published index statistics (castorini/anserini src/main/resources/reproduce/from-document-collection/configs/cacm.yaml).
      expect([sparse.documents, sparse.terms, sparse.totalTokens]).toEqual([3204, 14363, 320968]);
      const docsFile = writeTsv(
        'cacm-docs.tsv',
        docs.map((d) => [d.id, d.text]),
      );
      for (const [sim, method, opts] of [
        ['bm25:0.9:0.4', 'bm25', { scorer: 'lucene' }],
        ['qld:1000', 'qld', { scorer: 'lucene', mu: 1000 }],
      ] as const) {
        const f = await compareSearch(docsFile, topics, dir, sim, method, opts, 1000);
        console.log(`[lucene-reference] CACM ${sim}: ${f.line} (Lucene index: ${f.stats})`);
        expect(f.stats).toContain(`terms=${sparse.terms} tokens=${sparse.totalTokens}`);
        expect(f.identical).toBe(topics.length);
        expect(f.bitEqual).toBe(f.scores);
        const g = await compareRm3(docsFile, topics, dir, sim, method, opts, 1000);
        console.log(`[lucene-reference] CACM RM3 ${sim}: ${g.line}`);
        expect([g.sameTerms, g.identical, g.bitEqual]).toEqual([topics.length, topics.length, g.scores]);
      }
    },
    600_000,
  );
});
