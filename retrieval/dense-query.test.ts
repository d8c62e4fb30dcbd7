/**
 * The dense query rule (dense-query.ts): by default every word of a query is embedded (windows the
 * embedder reads whole, mean-pooled by words); `--dense-query-words N` embeds only the last N words.
 * Whichever is in force is shown in --help and recorded where a run records its config: the
 * `eval retrieval` report (JSON and text) and a reproduction's retrieval run (config.json).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexCorpus } from '../indexer/index-corpus.js';
import { loadPrebuiltDense } from '../indexer/dense/prebuilt-dense.js';
import { createEmbedder } from '../indexer/embed/create-embedder.js';
import type { Embedder } from '../indexer/embed/types.js';
import { sharedUseLiteTokenizer, USE_LITE_MAX_TOKENS } from '../indexer/embed/use-lite-tokenizer.js';
import { runRetrievalGridRun } from '../eval/reproduce/retrieval-run.js';
import { runCli } from '../tests/support/run-cli.js';
import { closeSparseIndexes } from './open.js';
import { denseQueryConfig, denseQueryRule, embedDenseQuery, queryWindows, USE_LITE_WINDOW_WORDS, WHOLE_QUERY } from './dense-query.js';

const words = (s: string) => s.split(/\s+/).filter(Boolean);

/** A fake embedder: each text → a fixed unit vector from its first word's length; records what it was asked. */
function fake(provider: Embedder['provider']): Embedder & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    id: `${provider}:fake`,
    provider,
    model: 'fake',
    dimension: 3,
    asked,
    async embed(texts) {
      asked.push(texts);
      return texts.map((t) => {
        const n = words(t)[0]?.length ?? 0;
        const v = Float32Array.from([n % 2, n % 3, 1]);
        const len = Math.hypot(...v);
        return v.map((x) => x / len);
      });
    },
  };
}

// A Bar Exam-like query: a fact pattern, one sentence of 150 words, then the question.
const facts = 'A landowner fenced a strip of land in 1990. The neighbor never objected to the fence.';
const fence = 'the neighbor who lived on the other side of the fence never said a word about it and'.split(' ');
const long = Array.from({ length: 150 }, (_, i) => fence[i % fence.length]).join(' ') + '.';
const question = 'Who owns the strip?';
const query = `${facts}\n${long} ${question}`;

describe('dense query windows', () => {
  it('use-lite: every word once, in order, one sentence a window, a longer sentence in pieces of 64 words', () => {
    const w = queryWindows(query, 'use-lite', 128);
    expect(w.flatMap(words)).toEqual(words(query));
    expect(w[0]).toBe('A landowner fenced a strip of land in 1990.');
    expect(w.map((x) => words(x).length)).toEqual([9, 7, USE_LITE_WINDOW_WORDS, USE_LITE_WINDOW_WORDS, 150 - 2 * USE_LITE_WINDOW_WORDS, 4]);
  });

  it("other embedders: one window, or whole sentences packed up to the index's max words", () => {
    expect(queryWindows(query, 'transformers')).toEqual([query]);
    const w = queryWindows(query, 'transformers', 100);
    expect(w.flatMap(words)).toEqual(words(query));
    expect(w.map((x) => words(x).length)).toEqual([16, 100, 50 + 4]);
  });

  it('whole: the word-weighted mean of the windows, unit length; last-words N: the last N words only', async () => {
    const e = fake('use-lite');
    const v = await embedDenseQuery(e, query, WHOLE_QUERY, 128);
    const windows = queryWindows(query, 'use-lite', 128);
    expect(e.asked).toEqual([windows]);
    const vs = await fake('use-lite').embed(windows, { kind: 'query' });
    const mean = [0, 1, 2].map((d) => vs.reduce((s, x, i) => s + words(windows[i]).length * x[d], 0));
    const len = Math.hypot(...mean);
    mean.forEach((m, d) => expect(v[d]).toBeCloseTo(m / len, 6));

    const one = fake('use-lite');
    expect(Array.from(await embedDenseQuery(one, 'adverse possession of land', WHOLE_QUERY))).toEqual(
      Array.from((await fake('use-lite').embed(['adverse possession of land'], { kind: 'query' }))[0]),
    );
    expect(one.asked).toEqual([['adverse possession of land']]);

    const tail = fake('use-lite');
    await embedDenseQuery(tail, query, denseQueryRule(24));
    expect(tail.asked).toEqual([[words(query).slice(-24).join(' ')]]);
    expect(denseQueryRule(0)).toEqual(WHOLE_QUERY);
    expect(denseQueryRule(undefined)).toEqual(WHOLE_QUERY);
  });
});

describe("no query word is past the index's word limit (--max-words)", () => {
  it('use-lite: windows of at most the word limit when it is under 64 words, every word once, in order', () => {
    const w = queryWindows(query, 'use-lite', 32);
    expect(w.flatMap(words)).toEqual(words(query));
    for (const x of w) expect(words(x).length).toBeLessThanOrEqual(32);
    expect(w.map((x) => words(x).length)).toEqual([9, 7, 32, 32, 32, 32, 22, 4]);
    expect(denseQueryConfig(WHOLE_QUERY, 'use-lite', 32).text).toContain("pieces of 32 words, the index's word limit");
    expect(denseQueryConfig(WHOLE_QUERY, 'use-lite', 128).text).toContain('pieces of 64 words;');
  });

  it('last-words N over the word limit: the last N words in pieces of the limit, so the question at the end is embedded', async () => {
    const e = fake('transformers');
    await embedDenseQuery(e, query, denseQueryRule(48), 20);
    expect(e.asked).toHaveLength(1);
    expect(e.asked[0].map((x) => words(x).length)).toEqual([20, 20, 8]);
    expect(e.asked[0].flatMap(words)).toEqual(words(query).slice(-48));
    expect(denseQueryConfig(denseQueryRule(48), 'transformers', 20)).toMatchObject({
      rule: 'last-words',
      words: 48,
      windows: expect.stringContaining('pieces of at most 20 words'),
    });
    // within the limit: one text, as before
    const one = fake('transformers');
    await embedDenseQuery(one, query, denseQueryRule(16), 20);
    expect(one.asked).toEqual([[words(query).slice(-16).join(' ')]]);
  });

  it('the real use-lite embedder of a --max-words 32 index tells apart two queries that differ only past word 32 of a sentence', {
    timeout: 60_000,
  }, async () => {
    const start =
      'The landowner, who had for many years permitted his neighbor to cross the northern strip of the farm on foot to reach the public road, later sold the farm to a buyer,';
    expect(words(start)).toHaveLength(32);
    const land = `${start} who after reading the recorded deed built a fence that blocked the path the neighbor had always used.`;
    const hearsay = `${start} who after a hearsay statement was offered at trial by the prosecutor objected to the testimony.`;
    const e = await createEmbedder({ provider: 'use-lite', workers: 0, maxWords: 32 });
    try {
      const [a, b] = [await embedDenseQuery(e, land, WHOLE_QUERY, 32), await embedDenseQuery(e, hearsay, WHOLE_QUERY, 32)];
      const diff = Math.max(...Array.from(a, (x, i) => Math.abs(x - b[i])));
      expect(diff).toBeGreaterThan(1e-3);
    } finally {
      await e.close?.();
    }
  });
});

describe('use-lite windows fit the model', () => {
  // One sentence of 61 words, 52 of them statute sections (≈ 500 tokens), then what the claim concerns.
  const cites = Array.from({ length: 52 }, (_, i) => `§${1000 + i * 7}(b)(${(i % 9) + 1})`).join(' ');
  const land = `The claim rests on ${cites} concerning adverse possession of land.`;
  const hearsay = `The claim rests on ${cites} concerning hearsay statements at trial.`;

  it('a window of 64 words or fewer but more than 128 tokens is split into runs that fit, every word kept in order', () => {
    const tokenizer = sharedUseLiteTokenizer();
    expect(tokenizer.encode(land).length).toBeGreaterThan(3 * USE_LITE_MAX_TOKENS);
    const w = queryWindows(land, 'use-lite');
    expect(w.length).toBeGreaterThan(3);
    expect(w.flatMap(words)).toEqual(words(land));
    for (const x of w) expect(tokenizer.encode(x).length).toBeLessThanOrEqual(USE_LITE_MAX_TOKENS);
    expect(w.join(' ')).toBe(land);
    // a word longer than the limit by itself is cut into runs of its characters
    const blob = 'x'.repeat(3000);
    const b = queryWindows(`Read ${blob} now.`, 'use-lite');
    expect(b.join('')).toBe(`Read${blob}now.`);
    for (const x of b) expect(tokenizer.encode(x).length).toBeLessThanOrEqual(USE_LITE_MAX_TOKENS);
  });

  it('the real embedder tells two such queries apart by their last words', { timeout: 60_000 }, async () => {
    const e = await createEmbedder({ provider: 'use-lite', workers: 0 });
    try {
      const [a, b] = [await embedDenseQuery(e, land, WHOLE_QUERY), await embedDenseQuery(e, hearsay, WHOLE_QUERY)];
      const diff = Math.max(...Array.from(a, (x, i) => Math.abs(x - b[i])));
      expect(diff).toBeGreaterThan(1e-3);
    } finally {
      await e.close?.();
    }
  });
});

describe('the rule in force is shown and recorded', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lexcase-dense-query-'));
    await indexCorpus('default', { out: join(dir, 'idx'), methods: ['bm25'], workers: 0 });
    expect(await loadPrebuiltDense(join(dir, 'idx'), () => {})).toBe('default-use-lite');
    writeFileSync(join(dir, 'topics.tsv'), `q1\t${facts} ${question}\n`);
    writeFileSync(join(dir, 'qrels.txt'), 'q1 0 mbe_1 1\n');
  }, 180_000);
  afterAll(async () => {
    await closeSparseIndexes();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--help of search and eval retrieval names --dense-query-words and the default rule', async () => {
    for (const cmd of [['search'], ['eval', 'retrieval']]) {
      const h = await runCli([...cmd, '--help']);
      expect(h.stdout.replace(/\s+/g, ' ')).toMatch(
        /--dense-query-words <n> dense \(also hybrid's dense\): embed only the last N words .* default 0 = the whole query/,
      );
    }
  });

  it("eval retrieval records the rule of dense and of hybrid's dense, in JSON and in the text report", { timeout: 120_000 }, async () => {
    const idx = join(dir, 'idx');
    const base = [
      'eval',
      'retrieval',
      '--topics',
      join(dir, 'topics.tsv'),
      '--qrels',
      join(dir, 'qrels.txt'),
      '--index',
      idx,
      '--method',
      'dense,hybrid',
      '--hybrid-methods',
      'bm25,dense',
      '--hits',
      '10',
    ];
    const whole = await runCli(['--json', ...base]);
    expect(whole.code, whole.stderr).toBe(0);
    const w = JSON.parse(whole.stdout).results as { method: string; config: any }[];
    expect(w[0].config.query).toMatchObject({ rule: 'whole', windows: expect.stringContaining('sentences') });
    expect(w[1].config.components.dense.query).toEqual(w[0].config.query);
    const tail = await runCli([...base, '--dense-query-words', '24']);
    expect(tail.code, tail.stderr).toBe(0);
    expect(tail.stdout).toContain('Dense queries (dense, hybrid): only the last 24 words of each query are embedded (--dense-query-words 24).');
    const tailJson = JSON.parse((await runCli(['--json', ...base, '--dense-query-words', '24'])).stdout).results;
    expect(tailJson[0].config.query).toMatchObject({ rule: 'last-words', words: 24 });
  });

  it("a reproduction's retrieval run records the rule in its config.json", { timeout: 120_000 }, async () => {
    const runDir = join(dir, 'run');
    await runRetrievalGridRun({ runDir, method: 'dense', index: join(dir, 'idx'), split: 'val', limit: 2, ks: [10] });
    const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
    expect(config.config.retriever).toMatchObject({ embedder: 'use-lite:universal-sentence-encoder-lite', query: { rule: 'whole' } });
  });
});
