/**
 * An explanation's score is the search's score bit for bit, for every method and scorer, over many
 * (query, passage) pairs of the bundled Bar Exam corpus (10 val questions × top 20 × 7 configurations): bm25 (lexcase and lucene scorers), qld
 * (textbook, lucene variant, lucene scorer), dense (the tiny BERT fixture) and hybrid. Before, explain
 * recomputed the score in another order (query order, factors regrouped; dense as a double dot
 * product of the float vectors), so `search --explain --json`, the explorer's /api/explain, /v1 and
 * MCP's explain (all retriever.explain through serve/query explainPassage) printed a second number
 * for one figure: bm25 and qld up to 8e-16 relative off, dense up to 4e-9.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../corpora/registry.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { openQueryService } from '../serve/query/query-service.js';
import { runCli } from '../tests/support/run-cli.js';
import { closeSparseIndexes, openRetriever } from './open.js';

const modelDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'tests/fixtures/tiny-embedder/tiny-bert');
let dir: string;
let index: string;
let queries: string[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-explain-score-'));
  index = join(dir, 'idx');
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'barexam', methods: ['bm25', 'qld', 'dense'], workers: 0, dense: { embedder: { provider: 'transformers', modelDir } } },
  );
  queries = (await loadQuestions('barexam', 'val')).slice(0, 10).map((q) => `${q.prompt} ${q.question}`.trim());
}, 600_000);

afterAll(async () => {
  await closeSparseIndexes();
  await rm(dir, { recursive: true, force: true });
});

const CONFIGS: Array<[string, Record<string, unknown>]> = [
  ['bm25', {}],
  ['bm25', { scorer: 'lucene' }],
  ['qld', {}],
  ['qld', { variant: 'lucene' }],
  ['qld', { scorer: 'lucene' }],
  ['dense', {}],
  ['hybrid', {}],
];

it('explain prints the score search printed for every hit (bm25, qld, dense, hybrid; 10 Bar Exam questions × top 20)', async () => {
  const differing: string[] = [];
  let pairs = 0;
  for (const [method, opts] of CONFIGS) {
    const r = await openRetriever(index, method, opts);
    for (const q of queries) {
      for (const h of await r.search(q, { k: 20 })) {
        const e = await r.explain!(q, h.id);
        pairs++;
        if (String(e.score) !== String(h.score)) differing.push(`${method} ${JSON.stringify(opts)} ${h.id}: search ${h.score} explain ${e.score}`);
        // the parts are the ranking's addends: they sum to the score up to the last digits (the
        // lucene scorer: up to float32 rounding, its score being the float of their sum)
        const tol = (opts.scorer === 'lucene' ? 1e-7 : 1e-12) * Math.max(1, Math.abs(e.score));
        if (e.terms.length) expect(Math.abs(e.terms.reduce((s, t) => s + t.score, 0) - e.score)).toBeLessThanOrEqual(tol);
      }
    }
  }
  expect(pairs).toBeGreaterThan(1200);
  expect(differing).toEqual([]);
}, 600_000);

it('search --explain --json: each hit explanation score is the hit score (CLI)', async () => {
  for (const method of ['bm25', 'qld', 'dense', 'hybrid']) {
    for (const q of queries.slice(0, 5)) {
      const r = await runCli(['search', q, '--index', index, '--method', method, '-k', '10', '--explain', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const hits = (JSON.parse(r.stdout) as { hits: Array<{ score: number; explanation: { score: number } }> }).hits;
      expect(hits.length).toBe(10);
      for (const h of hits) expect(String(h.explanation.score)).toBe(String(h.score));
    }
  }
}, 600_000);

it('the query service (explorer /api/explain, /v1/explain, MCP explain) gives each hit its search score', async () => {
  const svc = await openQueryService({ indexes: [{ name: 'bar', dir: index }] });
  try {
    for (const method of ['bm25', 'qld', 'dense', 'hybrid']) {
      for (const query of queries.slice(0, 5)) {
        const found = await svc.search({ index: 'bar', query, method, k: 10 });
        expect(found.hits.length).toBe(10);
        for (const h of found.hits) {
          const e = await svc.explain({ index: 'bar', query, method, id: h.id });
          expect(String(e.score)).toBe(String(h.score));
        }
      }
    }
  } finally {
    await svc.close();
  }
}, 600_000);
