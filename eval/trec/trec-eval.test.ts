/**
 * TREC evaluation against hand-computed values. Fixtures: tests/fixtures/trec/{qrels,run-a,run-b}.txt.
 *
 * trec_eval's order of run-a (score desc, ties by docid DESCENDING; the rank column is ignored):
 *   t1: d3 (3.0, grade 0), d9 (2.0, unjudged → 0), d1 (2.0, grade 2), d5 (1.5, grade 1), d2 (0.5, grade 1)
 *       — d9 and d1 tie at 2.0; "d9" > "d1" so d9 ranks 2nd, although the file's rank column says d1 is 2nd.
 *       ranked grades [0, 0, 2, 1, 1]; judged grades {2, 1, 0, 1}; relevant (≥ 1) = 3.
 *   t2: b (1.0, grade 0), a (1.0, grade 1) — tie; "b" > "a" so b first (file says a first). grades [0, 1]; relevant = 1.
 *   t3: x (grade 0), q (unjudged) — no relevant document at all.
 *   t4: in the qrels only. t5: in the run only.
 *
 * Cross-check: trec_eval v9.0.8 built from usnistgov/trec_eval prints the same values for these
 * fixtures (`trec_eval -q -m recall.1,3,5 -m P.3,10 -m ndcg_cut.3,5 -m recip_rank -m map -m map_cut.3`,
 * with the `#` lines removed, which 9.0.8 does not accept): e.g. t1 map 0.4778, ndcg_cut_5 0.5805;
 * all: map 0.3259, recip_rank 0.2778, ndcg_cut_5 0.4038, recall_5 0.6667; with -c map 0.2444.
 */
import { join } from 'node:path';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadQrels, type Qrels } from '../../corpora/qrels.js';
import { loadTrecRun, type TrecRun } from './run.js';
import { evaluateRun } from './evaluate.js';
import { parseMeasures, parseMeasure, measureValue } from './measures.js';
import { trecOrder } from './order.js';
import { compareTrecEvals } from './compare.js';
import { comparisonTable, topicLines } from './format.js';

const FIX = join(import.meta.dirname, '../../tests/fixtures/trec');
const L = Math.log2;

let qrels: Qrels;
let runA: TrecRun;
let runB: TrecRun;
const measures = parseMeasures(['recall@1', 'recall@3', 'recall@5', 'p@3', 'p@10', 'ndcg@3', 'ndcg@5', 'mrr@2', 'mrr@10', 'map', 'map@3']);

beforeAll(async () => {
  qrels = await loadQrels(join(FIX, 'qrels.txt'));
  runA = (await loadTrecRun(join(FIX, 'run-a.txt'))).run;
  runB = (await loadTrecRun(join(FIX, 'run-b.txt'))).run;
});

describe('trec_eval ordering', () => {
  it('sorts by score descending and breaks ties by docid descending (byte order), ignoring the rank column', () => {
    expect(trecOrder(runA.get('t1')!).map((d) => d.docid)).toEqual(['d3', 'd9', 'd1', 'd5', 'd2']);
    expect(trecOrder(runA.get('t2')!).map((d) => d.docid)).toEqual(['b', 'a']);
    // "d9" > "d10" in strcmp order (byte '9' > '1'), though 9 < 10 as numbers
    expect(
      trecOrder([
        { docid: 'd10', score: 1 },
        { docid: 'd9', score: 1 },
      ]).map((d) => d.docid),
    ).toEqual(['d9', 'd10']);
  });
});

describe('per-topic measures (trec_eval definitions)', () => {
  it('topic t1: graded, a tie, an unjudged document', () => {
    const r = evaluateRun(runA, qrels, { measures, iterations: 10 });
    const t1 = r.perTopic.find((t) => t.qid === 't1')!;
    expect(t1).toMatchObject({ numRel: 3, numRet: 5, relRet: 3 });
    const v = t1.values;
    // recall@k = relevant in top k / 3: top1 [0] → 0; top3 [0,0,2] → 1/3; top5 all three → 1
    expect(v['recall@1']).toBe(0);
    expect(v['recall@3']).toBeCloseTo(1 / 3, 12);
    expect(v['recall@5']).toBe(1);
    // P@3 = 1/3; P@10 = 3/10 (missing ranks count as non-relevant)
    expect(v['p@3']).toBeCloseTo(1 / 3, 12);
    expect(v['p@10']).toBeCloseTo(0.3, 12);
    // first relevant at rank 3: RR@10 = 1/3, RR@2 = 0
    expect(v['mrr@10']).toBeCloseTo(1 / 3, 12);
    expect(v['mrr@2']).toBe(0);
    // AP: relevant at ranks 3, 4, 5 → (1/3 + 2/4 + 3/5) / 3 = 0.477778
    expect(v.map).toBeCloseTo((1 / 3 + 2 / 4 + 3 / 5) / 3, 12);
    expect(v.map).toBeCloseTo(0.477778, 6);
    // map_cut_3: only rank 3 counts → (1/3) / 3 (denominator stays all relevant)
    expect(v['map@3']).toBeCloseTo(1 / 9, 12);
    // nDCG@3: DCG = 2/log2(4) = 1; ideal grades [2,1,1]: 2/log2(2) + 1/log2(3) + 1/log2(4) = 3.130930
    const idcg = 2 / L(2) + 1 / L(3) + 1 / L(4);
    expect(idcg).toBeCloseTo(3.13093, 5);
    expect(v['ndcg@3']).toBeCloseTo(1 / idcg, 12);
    expect(v['ndcg@3']).toBeCloseTo(0.319394, 6);
    // nDCG@5: DCG = 2/log2(4) + 1/log2(5) + 1/log2(6) = 1.817529; same ideal → 0.580508
    expect(v['ndcg@5']).toBeCloseTo((2 / L(4) + 1 / L(5) + 1 / L(6)) / idcg, 12);
    expect(v['ndcg@5']).toBeCloseTo(0.580508, 6);
  });

  it('topic t2: the tie puts the non-relevant "b" first', () => {
    const v = evaluateRun(runA, qrels, { measures, iterations: 10 }).perTopic.find((t) => t.qid === 't2')!.values;
    expect(v['recall@1']).toBe(0);
    expect(v['recall@3']).toBe(1);
    expect(v['mrr@10']).toBe(0.5);
    expect(v.map).toBe(0.5); // (1/2) / 1
    // DCG = 1/log2(3); ideal = 1/log2(2) = 1 → 0.630930
    expect(v['ndcg@3']).toBeCloseTo(1 / L(3), 12);
  });

  it('graded gains: nDCG uses the grade as the gain, a higher grade earlier scores more', () => {
    const m = parseMeasure('ndcg@2');
    // judged {3, 1}: ranking [1, 3] → (1/1 + 3/log2 3) / (3/1 + 1/log2 3)
    expect(measureValue(m, { ranked: [1, 3], judged: [3, 1], level: 1 })).toBeCloseTo((1 + 3 / L(3)) / (3 + 1 / L(3)), 12);
    expect(measureValue(m, { ranked: [3, 1], judged: [3, 1], level: 1 })).toBe(1);
  });
});

describe('topic accounting like trec_eval', () => {
  it('default: skips run topics without qrels (t5) and qrels topics not in the run (t4); keeps t3 (no relevant) at 0', () => {
    const r = evaluateRun(runA, qrels, { measures, iterations: 10 });
    expect(r.perTopic.map((t) => t.qid)).toEqual(['t1', 't2', 't3']);
    expect(r.n).toBe(3);
    expect(r.topics.notInQrels).toEqual({ count: 1, examples: ['t5'] });
    expect(r.topics.missingFromRun).toMatchObject({ count: 1, examples: ['t4'], countedAsZero: false });
    expect(r.topics.noRelevant).toMatchObject({ count: 1, examples: ['t3'], skipped: false });
    expect(Object.values(r.perTopic[2].values).every((x) => x === 0)).toBe(true);
    // means over 3 topics
    expect(r.means['recall@5'].estimate).toBeCloseTo((1 + 1 + 0) / 3, 12);
    expect(r.means['mrr@10'].estimate).toBeCloseTo((1 / 3 + 1 / 2 + 0) / 3, 12); // 0.277778
    expect(r.means.map.estimate).toBeCloseTo(((1 / 3 + 2 / 4 + 3 / 5) / 3 + 0.5 + 0) / 3, 12); // 0.325926
    expect(r.means['ndcg@5'].estimate).toBeCloseTo((0.580508 + 0.63093 + 0) / 3, 5); // 0.403813
  });

  it('--complete (trec_eval -c): t4 counts as 0, the mean is over all 4 qrels topics', () => {
    const r = evaluateRun(runA, qrels, { measures, iterations: 10, complete: true });
    expect(r.n).toBe(4);
    expect(r.perTopic.find((t) => t.qid === 't4')).toMatchObject({ missingFromRun: true, numRet: 0, numRel: 1 });
    expect(r.means['recall@5'].estimate).toBeCloseTo(2 / 4, 12);
    expect(r.means.map.estimate).toBeCloseTo(((1 / 3 + 2 / 4 + 3 / 5) / 3 + 0.5) / 4, 12);
  });

  it('--skip-no-relevant leaves t3 out of the mean', () => {
    const r = evaluateRun(runA, qrels, { measures, iterations: 10, skipNoRelevant: true });
    expect(r.perTopic.map((t) => t.qid)).toEqual(['t1', 't2']);
    expect(r.means['recall@5'].estimate).toBe(1);
    expect(r.means['mrr@10'].estimate).toBeCloseTo((1 / 3 + 1 / 2) / 2, 12);
  });

  it('relevance level 2 (trec_eval -l 2): only grade-2 documents are relevant; nDCG still uses all grades', () => {
    const r = evaluateRun(runA, qrels, { measures, iterations: 10, relevanceLevel: 2 });
    const t1 = r.perTopic.find((t) => t.qid === 't1')!;
    expect(t1.numRel).toBe(1); // d1 only
    expect(t1.values['recall@3']).toBe(1); // d1 at rank 3
    expect(t1.values.map).toBeCloseTo(1 / 3, 12);
    expect(t1.values['ndcg@5']).toBeCloseTo(0.580508, 6);
    // t2 has a relevant document (grade 1), only none at grade 2: it is not a "no relevant document"
    // topic — it scores 0 on the level-based measures, not on nDCG — and is counted apart.
    const t2 = r.perTopic.find((t) => t.qid === 't2')!;
    expect(t2.values.map).toBe(0);
    expect(t2.values['ndcg@3']).toBeGreaterThan(0);
    expect(r.topics.noRelevant.examples).toEqual(['t3']);
    expect(r.topics.belowLevel).toEqual({ count: 1, examples: ['t2'] });
    const lines = topicLines(r).join('\n');
    expect(lines).toMatch(/1 topic with no relevant document \(t3\) scores 0/);
    expect(lines).toMatch(/1 topic with relevant documents but none of grade ≥ 2 \(t2\) scores 0 on recall, P, MRR and MAP at this level, not on nDCG/);
    expect(lines).not.toMatch(/no relevant document \(t2/);
  });

  it('relevance level 2 with --skip-no-relevant: only the topic with no relevant document at any grade (t3) leaves the mean', () => {
    const r = evaluateRun(runA, qrels, { measures, iterations: 10, relevanceLevel: 2, skipNoRelevant: true });
    expect(r.perTopic.map((t) => t.qid)).toEqual(['t1', 't2']);
    expect(r.topics.noRelevant).toMatchObject({ count: 1, examples: ['t3'], skipped: true });
    expect(r.means['ndcg@3'].estimate).toBeCloseTo((0.319394 + 1 / L(3)) / 2, 5);
    expect(topicLines(r).join('\n')).toMatch(/Left out \(--skip-no-relevant\): 1 topic with no relevant document \(t3\)/);
  });

  it('scores are doubles, as in trec_eval 10.0: 16.000002 ranks above 16.000001 (trec_eval 9.0.8, reading floats, ties them: MAP 0.5)', () => {
    const run: TrecRun = new Map([
      [
        'q1',
        [
          { docid: 'a', score: Number('16.000002') },
          { docid: 'b', score: Number('16.000001') },
        ],
      ],
    ]);
    const judged: Qrels = new Map([
      [
        'q1',
        new Map([
          ['a', 1],
          ['b', 0],
        ]),
      ],
    ]);
    const r = evaluateRun(run, judged, { measures: parseMeasures(['map', 'mrr']), iterations: 10 });
    expect(r.means.map.estimate).toBe(1);
    // The same two scores as float32 are equal: the tie trec_eval 9.0.8 breaks by docid descending.
    expect(Math.fround(16.000002)).toBe(Math.fround(16.000001));
    const asFloat: TrecRun = new Map([['q1', run.get('q1')!.map((d) => ({ ...d, score: Math.fround(d.score) }))]]);
    expect(evaluateRun(asFloat, judged, { measures: parseMeasures(['map']), iterations: 10 }).means.map.estimate).toBe(0.5);
  });

  it('the means carry their 95% intervals by measure kind: Wilson for a 0/1 measure, none for a graded one below n = 10', () => {
    const r = evaluateRun(runA, qrels, { measures, iterations: 500, seed: 7 });
    for (const [name, ci] of Object.entries(r.means)) {
      const values = r.perTopic.map((t) => t.values[name]);
      expect(ci).toMatchObject({ n: 3, level: 0.95, estimate: values.reduce((a, b) => a + b, 0) / 3 });
      if (values.every((v) => v === 0 || v === 1)) {
        expect(ci, name).toMatchObject({ kind: 'proportion', method: 'wilson' });
        expect(ci.lo!).toBeLessThanOrEqual(ci.estimate);
        expect(ci.hi!).toBeGreaterThanOrEqual(ci.estimate);
      } else expect(ci, name).toMatchObject({ kind: 'mean', method: 'bootstrap', lo: null, hi: null, missing: 'n < 10', iterations: 500, seed: 7 });
    }
  });

  it('no topic in common is an error, not a table of zeros', () => {
    const other: TrecRun = new Map([['zz', [{ docid: 'd1', score: 1 }]]]);
    expect(() => evaluateRun(other, qrels, { measures })).toThrow(/no topic has both results in the run and judgements in the qrels/);
  });
});

describe('paired comparison', () => {
  it('pairs topics and reports B − A per metric, with an exact test and no interval below n = 10', () => {
    const A = evaluateRun(runA, qrels, { measures, iterations: 200 });
    const B = evaluateRun(runB, qrels, { measures, iterations: 200 });
    const c = compareTrecEvals(A, B);
    expect(c.shared).toBe(3);
    expect(c.sign).toBe('B − A');
    // run-b is ideal on t1 (ranked grades [2,1,1] → nDCG@5 = 1) and t2 ([1] → 1); t3 has nothing to find (0)
    expect(c.metrics['ndcg@5'].b).toBeCloseTo((1 + 1 + 0) / 3, 12);
    expect(c.metrics['ndcg@5'].estimate).toBeCloseTo((1 - 0.580508 + (1 - 0.63093) + 0) / 3, 5);
    // 2 topics differ, both the same way: the exact sign-flip test gives 2/4 — never a bootstrap's p < 0.001 from 3 topics
    expect(c.metrics['ndcg@5']).toMatchObject({ outcome: 'graded', test: 'sign-flip-exact', p: 0.5, lo: null, hi: null, missing: 'n < 10' });
    expect(comparisonTable(c, 'run-a', 'run-b')).toMatch(/\| ndcg@5 +\| +0\.4038 \| +0\.6667 \| +\+0\.263 \| +\(n < 10\) \| +0\.500 \| +exact sign-flip \|/);
  });

  it('with --complete, a topic one run never retrieved for is paired at 0 there, and the header says so rather than calling it shared', () => {
    const partB: TrecRun = new Map([...runB].filter(([qid]) => qid !== 't2'));
    const A = evaluateRun(runA, qrels, { measures, iterations: 200, complete: true });
    const B = evaluateRun(partB, qrels, { measures, iterations: 200, complete: true });
    const c = compareTrecEvals(A, B);
    // qrels t1–t4: t4 is in neither run, t2 only in A's
    expect(c).toMatchObject({ shared: 4, zeroA: 1, zeroB: 2 });
    // before: "Paired comparison B − A on 4 shared topics (A: run-a, B: run-b)." though run-b has no t2 and neither has t4
    expect(comparisonTable(c, 'run-a', 'run-b')).toMatch(
      /^Paired comparison B − A on 4 topics \(A: run-a, B: run-b\), 1 missing from A's run and 2 missing from B's run \(scored 0 there by --complete, like trec_eval -c\)\./,
    );
    // its footnote too: before, "Δ = B − A on the items both runs scored." over 3 zero-scored pairs
    expect(comparisonTable(c, 'run-a', 'run-b')).toContain(
      'Δ = B − A on the topics paired above: a topic missing from one run is scored 0 there (--complete).',
    );
    expect(comparisonTable(c, 'run-a', 'run-b')).not.toContain('on the items both runs scored');
    // without --complete the topic is not paired at all
    const skipped = compareTrecEvals(evaluateRun(runA, qrels, { measures, iterations: 200 }), evaluateRun(partB, qrels, { measures, iterations: 200 }));
    expect(comparisonTable(skipped, 'run-a', 'run-b')).toMatch(
      /^Paired comparison B − A on 2 shared topics \(A: run-a, B: run-b\); not paired: 1 only in A, 0 only in B\./,
    );
    expect(comparisonTable(skipped, 'run-a', 'run-b')).toContain('Δ = B − A on the items both runs scored.');
  });

  it('the footnote names the resamples and seed the paired figures used when they are not the defaults it states', () => {
    const A = evaluateRun(runA, qrels, { measures, iterations: 500, seed: 7 });
    const B = evaluateRun(runB, qrels, { measures, iterations: 500, seed: 7 });
    expect(comparisonTable(compareTrecEvals(A, B), 'a', 'b')).toMatch(/This comparison: 500 resamples, seed 7\.$/);
    expect(comparisonTable(compareTrecEvals(A, B, { iterations: 2000, seed: 13 }), 'a', 'b')).not.toContain('This comparison');
  });
});

describe('paired comparison layout', () => {
  it('one blank line between the comparison table and its footnote when no metric has a disagreement note', () => {
    const A = evaluateRun(runA, qrels, { measures, iterations: 200 });
    const B = evaluateRun(runB, qrels, { measures, iterations: 200 });
    const text = comparisonTable(compareTrecEvals(A, B), 'run-a', 'run-b');
    expect(text).not.toMatch(/\n\n\n/);
    expect(text).toMatch(/\| exact sign-flip \|\n\nΔ = B − A on the items both runs scored\./);
  });
});

describe('parsing', () => {
  it('metric names: lexcase and trec_eval spellings', () => {
    expect(parseMeasures(['ndcg_cut_10', 'P.5', 'recip_rank', 'map_cut_100', 'Recall@100']).map((m) => m.name)).toEqual([
      'ndcg@10',
      'p@5',
      'mrr',
      'map@100',
      'recall@100',
    ]);
    expect(() => parseMeasure('ndgc@10')).toThrow(/unknown metric "ndgc@10"/);
    expect(() => parseMeasure('recall')).toThrow(/needs a cutoff/);
    // trec_eval's map_cut is a family of cut MAPs: alone it was read as the uncut map, a different figure
    expect(() => parseMeasure('map_cut')).toThrow('"map_cut" needs a cutoff, e.g. map_cut.10 (MAP over the top 10); the uncut MAP is "map"');
    expect(parseMeasure('map').name).toBe('map');
  });

  it('a cutoff past the largest safe integer is refused naming the metric, not read as a rounded 1e20', () => {
    expect(() => parseMeasure('p@99999999999999999999')).toThrow(
      'invalid --metrics: cutoff of "p@99999999999999999999" must be a positive integer up to 9007199254740991',
    );
    expect(() => parseMeasure('ndcg_cut_9007199254740992')).toThrow(/cutoff of "ndcg_cut_9007199254740992" must be a positive integer up to/);
    expect(parseMeasure('recall@9007199254740991').k).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('qrels and run errors name file and line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-trec-'));
    const bad = join(dir, 'q.txt');
    await writeFile(bad, 't1 0 d1 1\nt1 0 d2 high\n');
    await expect(loadQrels(bad)).rejects.toThrow(`${bad}:2: relevance "high" is not an integer grade`);
    await writeFile(bad, 't1 0 d1 1\nt1 d2 1\n');
    await expect(loadQrels(bad)).rejects.toThrow(`${bad}:2: expected 4 whitespace-separated fields`);
    await writeFile(bad, 't1 0 d1 1\n\nt1 0 d1 0\n');
    await expect(loadQrels(bad)).rejects.toThrow(`${bad}:3: duplicate judgement of document "d1" for topic "t1" (first on line 1)`);
    const run = join(dir, 'r.txt');
    await writeFile(run, 't1 Q0 d1 1 2.0 x\nt1 Q0 d1 2 1.0 x\n');
    await expect(loadTrecRun(run)).rejects.toThrow(`${run}:2: document "d1" is listed twice for topic "t1"`);
    await writeFile(run, 't1 Q0 d1 1 high x\n');
    await expect(loadTrecRun(run)).rejects.toThrow(`${run}:1: score "high" is not a decimal number`);
    await writeFile(run, 't1 Q0 d1 1 1e999 x\n');
    await expect(loadTrecRun(run)).rejects.toThrow(`${run}:1: score "1e999" is not a finite number`);
  });

  it('a run or qrels line with bytes that are not UTF-8 is refused naming file:line: "d\\xff" and "d\\xfe" read as one docid (U+FFFD), the run\'s document matching the other\'s judgement', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-trec-'));
    const run = join(dir, 'r.txt');
    const qrels = join(dir, 'q.txt');
    await writeFile(run, Buffer.concat([Buffer.from('t1 Q0 d1 1 2.0 x\nt1 Q0 d'), Buffer.from([0xff]), Buffer.from(' 2 1.0 x\n')]));
    await writeFile(qrels, Buffer.concat([Buffer.from('t1 0 d'), Buffer.from([0xfe]), Buffer.from(' 1\n')]));
    await expect(loadTrecRun(run)).rejects.toThrow(`${run}:2: the line holds bytes that are not UTF-8`);
    await expect(loadQrels(qrels)).rejects.toThrow(`${qrels}:1: the line holds bytes that are not UTF-8`);
    // the replacement character itself, written in UTF-8 (EF BF BD), is text like any other
    await writeFile(run, 't1 Q0 d\uFFFD 1 2.0 x\n');
    expect([...(await loadTrecRun(run)).run.get('t1')!.map((d) => d.docid)]).toEqual(['d\uFFFD']);
  });

  it('a score in binary, octal or hex is refused naming file:line: Number() read "0b11" as 3 where trec_eval\'s atof reads 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-trec-'));
    const run = join(dir, 'r.txt');
    for (const score of ['0b11', '0o7', '0x1f', 'Infinity', '1_000']) {
      await writeFile(run, `t1 Q0 d1 1 9.5 x\nt1 Q0 d2 2 ${score} x\n`);
      await expect(loadTrecRun(run)).rejects.toThrow(`${run}:2: score "${score}" is not a decimal number`);
    }
    // decimal forms trec_eval reads as JavaScript does: kept
    await writeFile(run, 't1 Q0 d1 1 +12.5 x\nt1 Q0 d2 2 .5 x\nt1 Q0 d3 3 -3. x\nt1 Q0 d4 4 1E-4 x\nt1 Q0 d5 5 2e+1 x\n');
    const r = await loadTrecRun(run);
    expect(
      r.run
        .get('t1')!
        .map((d) => d.score)
        .sort((a, b) => b - a),
    ).toEqual([20, 12.5, 0.5, 1e-4, -3]);
    await expect(loadTrecRun(join(dir, 'nope.txt'))).rejects.toThrow(/run file not found: .*nope\.txt/);
  });

  it('a run whose lines end in CR alone is refused naming file:line, not read as one result per topic', async () => {
    // before: one line of 18 fields; its first six were topic q1's only result (d1), the rest ignored:
    // MRR 0 where the file's three results put the relevant d2 at rank 2 (0.5), exit 0
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-trec-'));
    const run = join(dir, 'cr.run');
    await writeFile(run, 'q1 Q0 d1 1 9.5 t\rq1 Q0 d2 2 8.0 t\rq1 Q0 d3 3 7.0 t\r');
    await expect(loadTrecRun(run)).rejects.toThrow(`${run}:1: a carriage return (CR) inside the line`);
    // CRLF line ends, and a CR at a line's end, stay fine
    await writeFile(run, 'q1 Q0 d1 1 9.5 t\r\nq1 Q0 d2 2 8.0 t\r\r\n');
    expect((await loadTrecRun(run)).run.get('q1')!.map((d) => d.docid)).toEqual(['d1', 'd2']);
  });

  it('a docid with a no-break space is one field, as trec_eval splits (ASCII whitespace only): the rank column is not read as its score', async () => {
    // trec_eval (C isspace) reads "d\u00a0x" as one docid with score 9.0, so d2 ranks 3rd: MRR = MAP = 1/3.
    // Split on JavaScript's \s, the line became docid "d", score "2" (the rank column): d2 ranked 2nd, 0.5.
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-trec-'));
    const run = join(dir, 'run.txt');
    const judged = join(dir, 'qrels.txt');
    await writeFile(run, 'q1 Q0 d1 1 9.5 t\nq1 Q0 d\u00a0x 2 9.0 t\nq1 Q0 d2 3 8.0 t\nq1 Q0 d3 4 7.0 t\n');
    await writeFile(judged, 'q1 0 d2 1\nq1 0 d\u00a0y 0\n');
    const loaded = await loadTrecRun(run);
    expect(loaded.run.get('q1')!.map((d) => [d.docid, d.score])).toEqual([
      ['d1', 9.5],
      ['d\u00a0x', 9],
      ['d2', 8],
      ['d3', 7],
    ]);
    expect(loaded.tags).toEqual(['t']);
    const q = await loadQrels(judged);
    expect([...q.get('q1')!.keys()]).toEqual(['d2', 'd\u00a0y']);
    const r = evaluateRun(loaded.run, q, { measures: parseMeasures(['mrr', 'map']), iterations: 10 });
    expect(r.means.mrr.estimate).toBeCloseTo(1 / 3, 10);
    expect(r.means.map.estimate).toBeCloseTo(1 / 3, 10);
  });
});
