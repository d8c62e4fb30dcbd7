/**
 * A query is embedded once per process per (embedder spec, rule, text): `dense` and `hybrid` opened
 * on the same use-lite index (hybrid opens its own dense component, hybrid-open.ts) ask the real
 * model once per query, as the demo's and `eval retrieval`'s dense + hybrid evaluations do. Before
 * (59fa04c) every query was embedded twice. The memoised vectors are the same bits: hybrid's hits
 * with the memo equal its hits with the memo cleared (the query embedded afresh).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage } from '../corpora/types.js';
import type { Embedder, EmbedOptions } from '../indexer/embed/types.js';
import { buildIndex } from '../indexer/build.js';
import type { DenseRetriever } from './dense.js';
import { clearQueryMemo } from './dense-query-memo.js';
import { openHybridRetriever } from './hybrid-open.js';
import { FUSABLE } from './methods.js';
import { closeSparseIndexes, openRetriever } from './open.js';
import type { Retriever } from './types.js';
import { BAREXAM_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';

/** Texts the dense retrievers' own embedders (built from the index's spec) were asked to embed as queries. */
const queryTexts: string[] = [];

/** openRetriever, with the embedder of a dense retriever counting its query texts. */
async function open(dir: string, method: string, opts: Record<string, unknown> = {}): Promise<Retriever> {
  const r = await openRetriever(dir, method, opts);
  if (method === 'dense') {
    const e = (r as DenseRetriever).embedder as { embed: Embedder['embed'] };
    const embed = e.embed.bind(e);
    e.embed = (texts: string[], o: EmbedOptions) => {
      if (o.kind === 'query') queryTexts.push(...texts);
      return embed(texts, o);
    };
  }
  return r;
}
/** Hybrid opened as openRetriever opens it (hybrid-open.ts), its dense component counted. */
const openHybrid = (dir: string) => openHybridRetriever(dir, { methods: 'bm25,dense' }, open, FUSABLE);

const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(200, 224)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));
// Realistic queries: two passages' openings (several sentences, so several use-lite windows each) and a short question.
const queries = [
  passages[3].text.split(/\s+/).slice(0, 90).join(' '),
  passages[17].text.split(/\s+/).slice(0, 40).join(' '),
  'Is a deed valid without delivery to the grantee?',
];

let tmp: string;
let dir: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-query-memo-'));
  dir = join(tmp, 'idx');
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: dir, corpusName: 'memo', methods: ['bm25', 'dense'], workers: 0, dense: { embedder: { provider: 'use-lite', workers: 0 } } },
  );
});
afterAll(async () => {
  await closeSparseIndexes();
  await rm(tmp, { recursive: true, force: true });
});

describe('dense query memo', () => {
  it('dense then hybrid over the same queries: each query embedded once, hybrid hits the same bits as without the memo', { timeout: 120_000 }, async () => {
    clearQueryMemo();
    queryTexts.length = 0;
    const dense = await open(dir, 'dense');
    const hybrid = await openHybrid(dir);
    const denseHits = [];
    for (const q of queries) denseHits.push(await dense.search(q, { k: 10 }));
    const afterDense = queryTexts.length;
    expect(afterDense).toBeGreaterThan(queries.length); // the long queries are several windows each
    const hybridHits = [];
    for (const q of queries) hybridHits.push(await hybrid.search(q, { k: 10 }));
    // hybrid's dense component embedded nothing again
    expect(queryTexts.length).toBe(afterDense);
    // and a repeated dense query neither
    expect(await dense.search(queries[0], { k: 10 })).toEqual(denseHits[0]);
    expect(queryTexts.length).toBe(afterDense);

    // Same bits as embedding afresh: a cleared memo embeds again and gives identical hits and scores.
    clearQueryMemo();
    const fresh = await openHybrid(dir);
    for (const [i, q] of queries.entries()) expect(await fresh.search(q, { k: 10 })).toEqual(hybridHits[i]);
    expect(queryTexts.length).toBe(2 * afterDense);
    const freshDense = await open(dir, 'dense');
    clearQueryMemo();
    for (const [i, q] of queries.entries()) expect(await freshDense.search(q, { k: 10 })).toEqual(denseHits[i]);
    for (const r of [dense, hybrid, fresh, freshDense]) await (r as { close?: () => Promise<void> }).close?.();
  });
});
