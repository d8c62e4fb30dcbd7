/**
 * A `reproduce` retrieval run ranks hits as `lexcase eval retrieval` does (trec_eval's order: score
 * ties by docid descending), so a question's firstRank there equals its firstRank here; a run dir an
 * older lexcase wrote (the retriever's raw order on ties, no `ranking` in config.json) is not resumed
 * into a mix of the two orders.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retrievalQuery } from '../../corpora/barexam.js';
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import { readResults } from '../run-dir.js';
import { evalRetrieval } from '../retrieval-eval.js';
import { RETRIEVAL_RANKING, runRetrievalGridRun } from './retrieval-run.js';
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
