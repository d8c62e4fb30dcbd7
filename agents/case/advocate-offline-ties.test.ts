/**
 * The offline CASE advocates fuse each retriever's run as it is printed. They fused each retriever's
 * internal tie order (sparse: doc index), not the order `search --method bm25`, its run file and /v1
 * print (trec_eval's: ties by docid descending), so of two passages with equal scores the fused list
 * gave each the other's rank: the `for` advocate's weighted RRF, the `against` advocate's contrast and
 * the learned selector's runs (its plan fusion and rank features) all disagreed with RRF recomputed
 * from the printed runs. Now every run is the retriever's printed top `depth` (retrieval/top-k.ts
 * printedRun), and a CASE offline run records this as `componentRanking`, so a run dir an older
 * lexcase wrote is refused on resume instead of mixing the two.
 *
 * Data: the bundled Bar Exam QA gold passages (1,149; ten texts occur twice, e.g. mbe_126 = mbe_2644,
 * so their bm25 and qld scores tie, and the doc index puts the lower id first while the printed run
 * puts the higher id first), bm25 + qld; each duplicated passage's opening words as a hypothesis (or
 * as the facts), val questions as the rest of the case.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage, Question } from '../../corpora/types.js';
import { batchSearch } from '../../eval/trec/batch-search.js';
import type { TrecRun } from '../../eval/trec/run.js';
import { buildIndex } from '../../indexer/build.js';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import type { Retriever } from '../../retrieval/types.js';
import { factsOf } from '../common/question-text.js';
import { DEFAULT_QUERY_PLAN, runOfflineAdvocate } from './advocate-offline.js';
import { advocateQueries, type QueryKind } from './advocate-queries.js';
import { gatherQuestionEvidence } from './evidence-candidates.js';
import { runCaseExperiment } from './experiment.js';

const tmp = tempDir('lexcase-case-offline-ties-');
const index = join(tmp.dir, 'barexam');
const DEPTH = 30;
const ALL = 10_000;
let retrievers: Record<'bm25' | 'qld', Retriever>;
let questions: Question[];
/** Each duplicated text's ids and its opening words (a query that ranks both copies, tied). */
let duplicated: { ids: string[]; opening: string }[];

beforeAll(async () => {
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) passages.push(p);
  await buildIndex(passages, { out: index, methods: ['bm25', 'qld'], workers: 0 });
  retrievers = { bm25: await openRetriever(index, 'bm25'), qld: await openRetriever(index, 'qld') };
  const byText = new Map<string, Passage[]>();
  for (const p of passages) byText.set(p.text, [...(byText.get(p.text) ?? []), p]);
  duplicated = [...byText.values()]
    .filter((ps) => ps.length > 1)
    .map((ps) => ({ ids: ps.map((p) => p.id), opening: ps[0].text.split(/\s+/).slice(0, 12).join(' ') }));
  questions = await loadQuestions('barexam', 'val');
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

/** `method`'s printed runs of `queries` (`search --topics` with -k DEPTH), by query text: each query's documents in file order. */
async function printed(method: 'bm25' | 'qld', queries: string[]): Promise<Map<string, string[]>> {
  const texts = [...new Set(queries)];
  const run: TrecRun = (
    await batchSearch(
      retrievers[method],
      texts.map((text, i) => ({ id: `t${i}`, text })),
      { k: DEPTH },
    )
  ).run;
  return new Map(texts.map((text, i) => [text, (run.get(`t${i}`) ?? []).map((d) => d.docid)]));
}

/**
 * RRF over printed runs (rank = line position), each passage's contributions added smallest first as
 * fusion.ts adds them (so in any order of the lists), sorted as fusion.ts sorts (score, then id).
 */
function rrf(lists: { docs: string[]; weight: number }[], rrfK: number): [string, number][] {
  const acc = new Map<string, number[]>();
  for (const l of lists) l.docs.forEach((id, i) => acc.set(id, [...(acc.get(id) ?? []), l.weight / (rrfK + i + 1)]));
  const sum = (xs: number[]) => xs.sort((a, b) => a - b).reduce((s, x) => s + x, 0);
  return [...acc].map(([id, xs]): [string, number] => [id, sum(xs)]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

const docs = (run: Map<string, string[]>, query: string) => run.get(query) ?? [];
/** How many duplicated pairs have both copies among `ids`. */
const tiedPairsIn = (ids: Iterable<string>) => {
  const s = new Set(ids);
  return duplicated.filter((d) => d.ids.every((id) => s.has(id))).length;
};

describe('the offline CASE advocates fuse the retriever runs as printed', () => {
  it("the `for` advocate's evidence equals weighted RRF recomputed from the printed bm25 runs of its three queries, tied copies included", async () => {
    expect(duplicated.length).toBeGreaterThanOrEqual(10);
    const plan = DEFAULT_QUERY_PLAN;
    const kinds = (Object.keys(plan.weights) as QueryKind[]).filter((k) => plan.weights[k] > 0);
    let tied = 0;
    for (const [i, d] of duplicated.entries()) {
      const facts = factsOf(questions[i]);
      const hypothesis = { key: 'A', letter: 'A', text: d.opening };
      const r = await runOfflineAdvocate({ retrievers, facts, hypothesis, k: ALL, depth: DEPTH });
      const queries = advocateQueries(facts, d.opening, kinds);
      const run = await printed(
        'bm25',
        queries.map((q) => q.text),
      );
      const expected = rrf(
        queries.map((q) => ({ docs: docs(run, q.text), weight: plan.weights[q.kind] })),
        plan.rrfK,
      );
      expect(r.evidence.map((e) => [e.id, e.score])).toEqual(expected);
      // the tool calls record the runs as printed too
      expect(r.toolCalls.map((c) => c.ids)).toEqual(queries.map((q) => docs(run, q.text)));
      tied += tiedPairsIn(r.evidence.map((e) => e.id));
    }
    // every duplicated text's hypothesis query ranks both copies (equal scores) within the depth
    expect(tied).toBeGreaterThanOrEqual(duplicated.length);
  }, 120_000);

  it("the `against` advocate's contrast equals RRF(facts) − RRF(facts + hypothesis) recomputed from the printed bm25 and qld runs", async () => {
    let tied = 0;
    for (const [i, d] of duplicated.entries()) {
      const hypothesis = { key: 'B', letter: 'B', text: questions[i].choices[1] };
      const joint = `${d.opening}\n${hypothesis.text}`;
      const r = await runOfflineAdvocate({ retrievers, facts: d.opening, hypothesis, k: ALL, depth: DEPTH, stance: 'against' });
      const [bm25, qld] = [await printed('bm25', [d.opening, joint]), await printed('qld', [d.opening, joint])];
      const fused = (q: string) =>
        rrf(
          [
            { docs: docs(bm25, q), weight: 1 },
            { docs: docs(qld, q), weight: 1 },
          ],
          60,
        );
      const withHyp = new Map(fused(joint));
      const expected = fused(d.opening)
        .map(([id, s]): [string, number] => [id, s - (withHyp.get(id) ?? 0)])
        .sort((a, b) => b[1] - a[1]);
      expect(r.evidence.map((e) => [e.id, e.score])).toEqual(expected);
      tied += tiedPairsIn(docs(bm25, d.opening));
    }
    expect(tied).toBeGreaterThanOrEqual(duplicated.length);
  }, 120_000);

  it("the learned selector reads every bm25 and qld run as printed (its plan fusion and rank features): an option's hypothesis, the facts, the joint key terms", async () => {
    for (const [i, d] of duplicated.entries()) {
      const q = questions[i];
      const hypotheses = [
        { key: 'A', letter: 'A', text: d.opening },
        { key: 'B', letter: 'B', text: q.choices[1] },
      ];
      const ev = await gatherQuestionEvidence(retrievers, { facts: factsOf(q), question: q.question, hypotheses, depth: DEPTH });
      const pairs = [...ev.options.flatMap((o) => Object.values(o.runs)), ev.facts, ev.joint].filter((p) => p.text.trim());
      for (const m of ['bm25', 'qld'] as const) {
        const run = await printed(
          m,
          pairs.map((p) => p.text),
        );
        expect(pairs.map((p) => p[m].map((h) => h.id))).toEqual(pairs.map((p) => docs(run, p.text)));
      }
      expect(tiedPairsIn(ev.options[0].runs.hypothesis!.bm25.map((h) => h.id))).toBeGreaterThanOrEqual(1);
    }
  }, 120_000);

  it('a CASE offline run records componentRanking; resuming a run dir an older lexcase wrote (none recorded, internal tie order fused) is refused, saying why', async () => {
    const runDir = join(tmp.dir, 'run-old');
    const run = (limit: number) =>
      runCaseExperiment({ system: 'case', offline: true, evidence: 'plan', dataset: 'barexam', split: 'val', index, limit, runDir });
    expect(await run(1)).toMatchObject({ ran: 1, skipped: 0 });
    const file = join(runDir, 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    expect(cfg.config.componentRanking).toBe('trec_eval, depth past ties');
    delete cfg.config.componentRanking;
    writeFileSync(file, JSON.stringify(cfg));
    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8');
    await expect(run(2)).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(
        /run-old: was started with a different config \(field "componentRanking" differs: componentRanking \(unset\) recorded, "trec_eval, depth past ties" now; this run dir's evidence was fused by an older lexcase from each retriever's internal tie order .*\); use a new run dir/,
      ),
    });
    expect(readFileSync(join(runDir, 'results.jsonl'), 'utf8')).toBe(results);
  }, 120_000);
});
