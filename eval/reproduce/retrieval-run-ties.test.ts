/**
 * A `reproduce` retrieval run ranks hits as `lexcase eval retrieval` does (trec_eval's order: score
 * ties by docid descending), so a question's firstRank there equals its firstRank here; a run dir an
 * older lexcase wrote (the retriever's raw order on ties, no `ranking` in config.json) is not resumed
 * into a mix of the two orders.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrievalQuery } from '../../corpora/barexam.js';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage, Question } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import { readResults } from '../run-dir.js';
import { evalRetrieval } from '../retrieval-eval.js';
import { HYBRID_PAST_DEPTH_RANKING, RETRIEVAL_RANKING, runRetrievalGridRun } from './retrieval-run.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';

const LIMIT = 3;
let dir: string;
let index: string;
let questions: Question[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-retrieval-ties-'));
  questions = (await loadQuestions('barexam', 'val')).filter((q) => q.goldPassageIds.length > 0).slice(0, LIMIT);
  index = join(dir, 'idx');
  // each gold passage's exact copy, indexed after it: the same score for every query, and an id
  // trec_eval ranks first ("<id>~copy" > "<id>" in byte order) where the retriever returns the gold first
  await buildSmallBarexamIndex(index, { items: LIMIT, corpus: 200, afterGold: (gold) => gold.map((p) => ({ ...p, id: `${p.id}~copy` })) });
}, 60_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

describe('reproduce retrieval runs on score ties', () => {
  it("rank each question's gold passage where `eval retrieval` does (before: a gold passage tied with its copy ranked 47 here, 48 there)", async () => {
    const runDir = join(dir, 'bm25');
    await runRetrievalGridRun({ runDir, method: 'bm25', index, limit: LIMIT, ks: [10, 100] });
    const records = (await readResults(runDir)).records;
    const ev = await evalRetrieval({ retriever: await openRetriever(index, 'bm25'), questions, ks: [10, 100] });
    expect(records.map((r) => [r.id, r.metrics?.firstRank])).toEqual(ev.perQuery.map((q) => [q.id, q.firstRank]));
    // the tie is real: a found gold passage and its copy score the same
    const found = ev.perQuery.filter((q) => q.firstRank !== null);
    expect(found.length).toBeGreaterThan(0);
    const q = questions.find((x) => x.id === found[0].id)!;
    const hits = await (await openRetriever(index, 'bm25')).search(retrievalQuery(q), { k: 100 });
    const score = (id: string) => hits.find((h) => h.id === id)?.score;
    expect(score(`${q.goldPassageIds[0]}~copy`)).toBe(score(q.goldPassageIds[0]));
    expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config.ranking).toBe(RETRIEVAL_RANKING);
  }, 60_000);

  it('refuse to resume a run dir an older lexcase wrote (ranks in the retriever order on ties), saying why and to use a new run dir', async () => {
    const runDir = join(dir, 'bm25-old');
    await runRetrievalGridRun({ runDir, method: 'bm25', index, limit: 2, ks: [10, 100] });
    const file = join(runDir, 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    delete cfg.config.ranking;
    writeFileSync(file, JSON.stringify(cfg));
    await expect(runRetrievalGridRun({ runDir, method: 'bm25', index, limit: LIMIT, ks: [10, 100] })).rejects.toThrow(
      /was started with a different config \(field "ranking" differs: ranking \(unset\) recorded, "trec_eval, top k past ties" now; this run dir's ranks were made by an older lexcase, which kept the retriever's order on score ties .*\); use a new run dir/,
    );
    expect((await readResults(runDir)).records).toHaveLength(2);
  }, 60_000);

  it('refuse to resume a run dir that cut each ranking at its depth before ordering ties ("trec_eval"), saying why', async () => {
    const runDir = join(dir, 'bm25-cut-first');
    await runRetrievalGridRun({ runDir, method: 'bm25', index, limit: 2, ks: [10, 100] });
    const file = join(runDir, 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    cfg.config.ranking = 'trec_eval';
    writeFileSync(file, JSON.stringify(cfg));
    await expect(runRetrievalGridRun({ runDir, method: 'bm25', index, limit: LIMIT, ks: [10, 100] })).rejects.toThrow(
      /field "ranking" differs: ranking "trec_eval" recorded, "trec_eval, top k past ties" now; this run dir's ranks were made by an older lexcase, which kept the retriever's order on score ties at the depth's cut .*; use a new run dir/,
    );
    expect((await readResults(runDir)).records).toHaveLength(2);
  }, 60_000);
});

describe('reproduce hybrid runs cut at the hybrid depth', () => {
  it('record that the top k is searched past the depth on a tie, and refuse a run dir an older lexcase cut at the depth', async () => {
    // the first val questions' gold passages and 100 legal-corpus passages, bm25 + qld + dense (the tiny BERT fixture)
    const hybridIndex = join(dir, 'hybrid-idx');
    const gold = new Set(questions.flatMap((q) => q.goldPassageIds));
    const passages: Passage[] = [];
    for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
    let n = 0;
    for await (const p of loadPassages('legal_corpus')) if (n++ < 100) passages.push(p);
    const modelDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'tests/fixtures/tiny-embedder/tiny-bert');
    await buildIndex(passages, {
      out: hybridIndex,
      methods: ['bm25', 'qld', 'dense'],
      workers: 0,
      dense: { embedder: { provider: 'transformers', modelDir } },
    });
    const runDir = join(dir, 'hybrid-old');
    // ks up to 1000, the hybrid's default depth
    await runRetrievalGridRun({ runDir, method: 'hybrid', index: hybridIndex, limit: 2, ks: [10, 1000] });
    const file = join(runDir, 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    expect(cfg.config.ranking).toBe(HYBRID_PAST_DEPTH_RANKING);
    // what an older lexcase recorded for the same run (it cut the fused ranking at the depth)
    cfg.config.ranking = RETRIEVAL_RANKING;
    writeFileSync(file, JSON.stringify(cfg));
    await expect(runRetrievalGridRun({ runDir, method: 'hybrid', index: hybridIndex, limit: LIMIT, ks: [10, 1000] })).rejects.toThrow(
      /field "ranking" differs: ranking "trec_eval, top k past ties" recorded, "trec_eval, top k past ties and past the depth" now; this run dir's hybrid ranks were cut by an older lexcase at the hybrid's depth.*; use a new run dir/,
    );
    expect((await readResults(runDir)).records).toHaveLength(2);
    // a cutoff below the depth was never cut there: the run records the plain order
    const shallow = join(dir, 'hybrid-shallow');
    await runRetrievalGridRun({ runDir: shallow, method: 'hybrid', index: hybridIndex, limit: 1, ks: [10, 100] });
    expect(JSON.parse(readFileSync(join(shallow, 'config.json'), 'utf8')).config.ranking).toBe(RETRIEVAL_RANKING);
  }, 120_000);
});
