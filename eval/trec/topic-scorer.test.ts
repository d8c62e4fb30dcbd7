/**
 * `eval retrieval --topics` scores each topic as its ranking comes (topic-scorer.ts) instead of
 * holding every method's whole run (4,000 topics × 1,000 hits: 4 million run documents a method,
 * 1.4 GB peak RSS for bm25 + qld). Its figures must be those of the whole run: here the report, the
 * run files and the Recall@k curve's ranks equal what the former path computed — the run kept in
 * memory (batchSearch), topics without hits put back with nothing retrieved, `evaluateRun` on it —
 * on Bar Exam QA questions over an index of the bundled passages, with the topic accounting's edge
 * cases in the set: a topic with no hit, a topic the qrels do not judge, a qrels topic not among the
 * topics, a judged topic without a relevant document, graded judgements.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Qrels } from '../../corpora/qrels.js';
import type { Topic } from '../../corpora/topics.js';
import { buildIndex } from '../../indexer/build.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import type { RankedQuery } from '../plots/recall-curve.js';
import { batchSearch } from './batch-search.js';
import { evalTopicsOnIndex, evalTopicsWith } from './eval-index.js';
import { evaluateRun, type TrecEvalOptions } from './evaluate.js';
import { parseMeasures } from './measures.js';
import { trecOrder } from './order.js';
import type { TrecRun } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-topic-scorer-'));
const index = join(dir, 'idx');
const HITS = 200;
let topics: Topic[];
let qrels: Qrels;

beforeAll(async () => {
  const questions = (await loadQuestions('barexam', 'val')).slice(0, 120);
  const gold = new Set(questions.flatMap((q) => q.goldPassageIds));
  const passages = [];
  for await (const p of loadPassages('barexam')) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 1500) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'barexam-topics', methods: ['bm25', 'qld'], workers: 0 },
  );
  const others = passages.filter((p) => !gold.has(p.id));
  topics = questions.map((q) => ({ id: q.id, text: `${q.prompt} ${q.question}`.replace(/\s+/g, ' ').trim() }));
  topics.push({ id: 'stopwords-only', text: 'the of and to' }); // no hit for any method: scored 0, in the mean
  topics.push({ id: 'unjudged', text: 'adverse possession of land for the statutory period' }); // not in the qrels: skipped
  qrels = new Map();
  questions.forEach((q, i) => {
    const judged = new Map<string, number>(q.goldPassageIds.map((g) => [g, 1]));
    if (i % 3 === 0) judged.set(others[i].id, 2); // graded: relevant at level 1 and 2
    if (i % 7 === 0) judged.set(others[i + 1].id, 0); // judged not relevant
    qrels.set(q.id, judged);
  });
  qrels.set('stopwords-only', new Map([[questions[0].goldPassageIds[0], 1]]));
  qrels.set('no-relevant', new Map([[others[0].id, 0]])); // judged, nothing relevant; among the topics below
  topics.push({ id: 'no-relevant', text: 'negligence duty of care breach' });
  qrels.set('not-searched', new Map([[others[1].id, 1]])); // a qrels topic that is not among the topics
}, 180_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

/** What `eval retrieval --topics` computed before: the whole run in memory, empty topics put back, evaluateRun, the plot's ranks from the run. */
async function wholeRun(method: string, opts: TrecEvalOptions, runFile: string) {
  const batch = await batchSearch(await openRetriever(index, method), topics, { k: HITS, runFile });
  const run: TrecRun = new Map(batch.run);
  for (const qid of batch.empty) run.set(qid, []);
  const result = evaluateRun(run, qrels, opts);
  const empty = new Set(batch.empty);
  for (const t of result.perTopic) if (empty.has(t.qid)) t.noHits = true;
  const level = opts.relevanceLevel ?? 1;
  const ranked: RankedQuery[] = result.perTopic.map((t) => {
    const judged = qrels.get(t.qid);
    const ranks: number[] = [];
    trecOrder(run.get(t.qid) ?? []).forEach((d, i) => {
      if ((judged?.get(d.docid) ?? 0) >= level) ranks.push(i + 1);
    });
    return { gold: t.numRel, ranks };
  });
  return { result, ranked, empty: batch.empty };
}

describe('eval retrieval --topics scores each topic as it comes', () => {
  const settings: [string, TrecEvalOptions][] = [
    ['trec_eval defaults', { measures: parseMeasures('map,ndcg@10,recall@100,mrr@10,p@5'.split(',')), iterations: 200 }],
    ['-c, relevance level 2', { measures: parseMeasures('map,ndcg@10,recall@100'.split(',')), iterations: 200, complete: true, relevanceLevel: 2 }],
    ['without topics that have no relevant document', { measures: parseMeasures('map,recall@100'.split(',')), iterations: 200, skipNoRelevant: true }],
  ];
  it.each(settings)(
    '%s: the report, the run files and the Recall@k ranks equal those of the whole run held in memory',
    async (_name, opts) => {
      const ranked = new Map<string, RankedQuery[]>();
      const report = await evalTopicsOnIndex({
        ...opts,
        index,
        methods: ['bm25', 'qld'],
        topics,
        topicsFile: 'topics.tsv',
        qrels,
        qrelsFile: 'qrels.txt',
        depth: HITS,
        runFile: join(dir, 'new', 'run.txt'),
        onRanked: (method, r) => ranked.set(method, r),
      });
      expect(report.topics).toEqual({ file: 'topics.tsv', n: topics.length, evaluated: report.results[0].n });
      for (const r of report.results) {
        const before = await wholeRun(r.method, opts, join(dir, 'old', `run.${r.method}.txt`));
        const { method: _m, tag: _t, latency: _l, config: _c, emptyTopics, noHits, runFile, ...scored } = r;
        // the same keys in the same order: the JSON report (--out, --json) is byte-identical
        expect(JSON.stringify(scored)).toBe(JSON.stringify(before.result));
        expect(emptyTopics).toBe(before.empty.length);
        expect(noHits.examples).toEqual(before.empty.filter((q) => qrels.has(q)));
        expect(ranked.get(r.method)).toEqual(before.ranked);
        expect(readFileSync(runFile!, 'utf8')).toBe(readFileSync(join(dir, 'old', `run.${r.method}.txt`), 'utf8'));
      }
      // the edge cases are in the figures compared
      const bm25 = report.results[0];
      expect(bm25.noHits.examples).toEqual(['stopwords-only']);
      expect(bm25.topics.notInQrels.examples).toEqual(['unjudged']);
      expect(bm25.topics.missingFromRun.examples).toEqual(['not-searched']);
      expect(bm25.topics.noRelevant.examples).toEqual(['no-relevant']);
    },
    120_000,
  );

  it('on worker threads, which wait while the topics handed on lag (search-workers.ts), the figures and run files are those of one thread', async () => {
    const opts = { measures: parseMeasures('map,ndcg@10,recall@100'.split(',')), iterations: 200 };
    const on = async (threads: number) =>
      evalTopicsOnIndex({
        ...opts,
        index,
        methods: ['qld'],
        topics,
        topicsFile: 'topics.tsv',
        qrels,
        qrelsFile: 'qrels.txt',
        depth: HITS,
        threads,
        runFile: join(dir, `threads-${threads}`, 'run.txt'),
      });
    const [one, three] = [await on(1), await on(3)];
    const figures = (r: typeof one) => JSON.stringify(r.results.map(({ latency: _l, runFile: _f, ...rest }) => rest));
    expect(figures(three)).toBe(figures(one));
    expect(readFileSync(join(dir, 'threads-3', 'run.txt'), 'utf8')).toBe(readFileSync(join(dir, 'threads-1', 'run.txt'), 'utf8'));
  }, 120_000);

  it('holds no run: each topic is handed on once, in topic order, and the batch keeps none', async () => {
    const seen: string[] = [];
    const { batch, result } = await evalTopicsWith(await openRetriever(index, 'bm25'), topics, qrels, {
      k: HITS,
      measures: parseMeasures('recall@100'.split(',')),
      iterations: 10,
      onTopic: (qid) => seen.push(qid),
    });
    expect(seen).toEqual(topics.map((t) => t.id));
    expect(batch.run.size).toBe(0);
    expect(result.topics.inRun).toBe(topics.length);
  }, 60_000);
});
