import { stat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Question } from '../corpora/types.js';
import type { Hit, Retriever } from '../retrieval/types.js';
import { evalRetrieval, parseKs } from './retrieval-eval.js';
import { TrecRunWriter, trecQrelsLines, trecRunLines } from './retrieval-eval-run-file.js';
import { trecOrder } from './trec/order.js';
import { loadTrecRun } from './trec/run.js';

const q = (id: string, prompt: string, question: string, gold: string[]): Question => ({
  id,
  prompt,
  question,
  choices: ['x', 'y'],
  answer: 'A',
  goldPassageIds: gold,
});

/** A retriever that ranks 200 passages p0..p199 so that the gold of each query lands at a chosen rank. */
function scripted(goldRank: Record<string, [string, number | null]>): Retriever & { seen: string[] } {
  const seen: string[] = [];
  return {
    method: 'scripted',
    seen,
    async search(query, opts) {
      seen.push(query);
      const [gold, rank] = goldRank[query];
      const ids = Array.from({ length: 200 }, (_, i) => `p${i}`);
      if (rank !== null) ids.splice(rank - 1, 0, gold);
      return ids.slice(0, opts?.k ?? 10).map((id, i): Hit => ({ id, score: 100 - i, rank: i + 1 }));
    },
  };
}

describe('evalRetrieval', () => {
  const questions = [
    q('q1', 'Facts one.', 'Q1?', ['g1']),
    q('q2', '', 'Q2?', ['g2']),
    q('q3', 'Facts three.', 'Q3?', ['g3']),
    q('q4', 'Facts four.', 'Q4?', ['g4']),
    q('q5', 'No gold.', 'Q5?', []),
  ];
  const retriever = scripted({
    'Facts one.\nQ1?': ['g1', 1],
    'Q2?': ['g2', 5],
    'Facts three.\nQ3?': ['g3', 50],
    'Facts four.\nQ4?': ['g4', null],
    'No gold.\nQ5?': ['x', null],
  });

  it('aggregates Recall@k, MRR@10 and nDCG@10 to hand-computed means, skipping questions without gold', async () => {
    const r = await evalRetrieval({ retriever, questions, ks: [1, 10, 100, 1000], iterations: 500 });
    expect(r.n).toBe(4);
    expect(r.skipped).toBe(1);
    expect(r.depth).toBe(1000);
    expect(r.perQuery.map((p) => p.firstRank)).toEqual([1, 5, 50, null]);
    expect(r.metrics['recall@1'].estimate).toBe(0.25);
    expect(r.metrics['recall@10'].estimate).toBe(0.5);
    expect(r.metrics['recall@100'].estimate).toBe(0.75);
    expect(r.metrics['recall@1000'].estimate).toBe(0.75);
    expect(r.metrics['mrr@10'].estimate).toBeCloseTo((1 + 1 / 5) / 4, 12);
    expect(r.metrics['ndcg@10'].estimate).toBeCloseTo((1 + 1 / Math.log2(6)) / 4, 12);
    // one gold passage per question: Recall@k is a 0/1 hit, a proportion (Wilson, any n); MRR and
    // nDCG are graded means (bootstrap), and 4 questions are below n = 10: no interval, said why
    for (const k of [1, 10, 100, 1000]) {
      const c = r.metrics[`recall@${k}`];
      expect(c).toMatchObject({ kind: 'proportion', method: 'wilson', n: 4 });
      expect(c.lo!).toBeLessThanOrEqual(c.estimate);
      expect(c.hi!).toBeGreaterThanOrEqual(c.estimate);
    }
    for (const k of ['mrr@10', 'ndcg@10']) expect(r.metrics[k]).toMatchObject({ kind: 'mean', method: 'bootstrap', lo: null, hi: null, missing: 'n < 10' });
  });

  it('queries with prompt + newline + question (never the answer choices)', async () => {
    retriever.seen.length = 0;
    await evalRetrieval({ retriever, questions: questions.slice(0, 2), ks: [10], iterations: 10 });
    expect(retriever.seen).toEqual(['Facts one.\nQ1?', 'Q2?']);
  });

  it('is reproducible: same seed → identical CIs', async () => {
    const a = await evalRetrieval({ retriever, questions, ks: [10], iterations: 300, seed: 5 });
    const b = await evalRetrieval({ retriever, questions, ks: [10], iterations: 300, seed: 5 });
    expect(b.metrics).toEqual(a.metrics);
  });

  it('parseKs sorts, dedupes and rejects bad values', () => {
    expect(parseKs('100,1,10,10')).toEqual([1, 10, 100]);
    expect(() => parseKs('1,0')).toThrow(/positive integer/);
    expect(() => parseKs('ten')).toThrow(/positive integer/);
  });

  it('a bad cutoff is a LexcaseError (INVALID_INPUT) naming the field and the value, from parseKs and evalRetrieval alike', async () => {
    expect(() => parseKs('1,0x10', '--k')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: 'invalid --k: each cutoff k must be a positive integer, got "0x10"' }),
    );
    await expect(evalRetrieval({ retriever, questions, ks: [10, 0] })).rejects.toMatchObject({
      name: 'LexcaseError',
      code: 'INVALID_INPUT',
      message: 'invalid ks: each cutoff k must be a positive integer, got "0"',
    });
  });
});

describe('TREC run and qrels files', () => {
  it('a docid with a space (a document id "Smith v. Jones" under --aggregate) is refused naming it, its topic and the run file, before the file is made', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-run-'));
    const file = join(dir, 'dc.run');
    const w = new TrecRunWriter(file, 'lexcase-bm25-maxp');
    // before: "invalid passage id: "Smith v. Jones" is empty or contains whitespace" — no topic, no file, and an empty dc.run left behind
    await expect(
      w.add('t1', [
        { id: 'Roe,Doe', score: 2, rank: 1 },
        { id: 'Smith v. Jones', score: 1, rank: 2 },
      ]),
    ).rejects.toThrow(`invalid docid: "Smith v. Jones" (topic "t1", run file ${file}) is empty or contains whitespace`);
    // closing (batch search closes in a finally) rejects with the same error and leaves no empty run file
    await expect(w.close()).rejects.toThrow('invalid docid: "Smith v. Jones"');
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  it('writes "<qid> Q0 <docid> <rank> <score> <tag>" lines and qrels', async () => {
    expect(
      trecRunLines(
        'q1',
        [
          { id: 'd1', score: 2.5, rank: 1 },
          { id: 'd2', score: -1, rank: 2 },
        ],
        'lexcase-bm25',
      ),
    ).toBe('q1 Q0 d1 1 2.500000 lexcase-bm25\nq1 Q0 d2 2 -1.000000 lexcase-bm25\n');
    expect(trecQrelsLines([q('q1', '', 'Q', ['g1', 'g2'])])).toBe('q1 0 g1 1\nq1 0 g2 1\n');
    expect(() => trecRunLines('q 1', [], 't')).toThrow(/whitespace/);
    // a line starting with "#" is a comment to `eval run` and trec_eval 10: the topic's lines would vanish
    expect(() => trecRunLines('#1', [{ id: 'd1', score: 1, rank: 1 }], 't')).toThrow(/query id: "#1" starts with "#"/);
    expect(() => trecQrelsLines([q('#1', '', 'Q', ['g1'])])).toThrow(/query id: "#1" starts with "#"/);
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-run-'));
    const w = new TrecRunWriter(join(dir, 'sub', 'run.txt'), 'tag');
    await w.add('a', [{ id: 'x', score: 1, rank: 1 }]);
    await w.add('b', [{ id: 'y', score: 0.5, rank: 1 }]);
    await w.close();
    expect(await readFile(join(dir, 'sub', 'run.txt'), 'utf8')).toBe('a Q0 x 1 1.000000 tag\nb Q0 y 1 0.500000 tag\n');
  });

  it("a tie made by the 6-decimal rounding is written in trec_eval's order (docid descending) and the rank column counts lines, so it agrees with eval run", async () => {
    const hits = [
      { id: 'a', score: 2.0000001, rank: 1 },
      { id: 'b', score: 2.0000002, rank: 2 }, // a retriever's own order may differ from the rounded file's
      { id: 'c', score: 2, rank: 3 },
      { id: 'z', score: 1.5, rank: 4 },
    ];
    const text = trecRunLines('q1', hits, 't');
    expect(text).toBe('q1 Q0 c 1 2.000000 t\nq1 Q0 b 2 2.000000 t\nq1 Q0 a 3 2.000000 t\nq1 Q0 z 4 1.500000 t\n');
    // the file's rank column is the rank trec_eval (and `lexcase eval run`) gives each line
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-run-'));
    await writeFile(join(dir, 'run.txt'), text);
    const { run } = await loadTrecRun(join(dir, 'run.txt'));
    expect(trecOrder(run.get('q1')!).map((d) => d.docid)).toEqual(
      text
        .trim()
        .split('\n')
        .map((l) => l.split(' ')[2]),
    );
    await rm(dir, { recursive: true, force: true });
  });

  it('TrecRunWriter: a run file path that is a directory, or under a file, rejects with OUT_FILE_REFUSED (no unhandled stream error)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-run-'));
    await writeFile(join(dir, 'afile'), 'x');
    for (const [file, why] of [
      [dir, /is a directory/],
      [join(dir, 'afile', 'run.txt'), /file stands where a folder/],
    ] as const) {
      const w = new TrecRunWriter(file, 'tag');
      await expect(w.add('a', [{ id: 'x', score: 1, rank: 1 }])).rejects.toMatchObject({ code: 'OUT_FILE_REFUSED', message: expect.stringMatching(why) });
      await expect(w.close()).rejects.toMatchObject({ code: 'OUT_FILE_REFUSED' });
    }
  });
});
