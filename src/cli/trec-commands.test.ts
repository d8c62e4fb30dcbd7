/**
 * A user's own collection, end to end through the CLI (in-process): index a tiny JSONL corpus,
 * `search --topics t.tsv --run-file run.txt`, `eval run run.txt --qrels qrels.txt` → trec_eval's
 * numbers; `eval retrieval --topics --qrels` gives the same numbers straight from the index.
 *
 * Every topic's terms occur in one or two passages only, so BM25's ranking is unambiguous:
 *   q1 "hearsay statement truth": p-hear1 (3 terms) then p-hear2 (hearsay only). qrels p-hear1 = 2,
 *      p-hear2 = 1 → both relevant, in ideal order: recall@10 = 1, nDCG@10 = 1, RR = 1, AP = (1/1 + 2/2)/2 = 1.
 *   q2 "hostile possession consideration": p-adverse (2 terms) then p-contract (1 term). qrels p-contract = 1,
 *      p-adverse = 0 → recall@10 = 1, RR = 1/2, AP = (1/2)/1 = 0.5, nDCG@10 = (1/log2 3) / (1/log2 2) = 0.630930.
 *   q3 "murder malice": p-murder, judged 0 (no relevant document for q3) → 0 on everything, in the mean (trec_eval).
 *   q4 "zoning variance": no term in the corpus → no hit → no run line → skipped, like trec_eval (0 with --complete).
 *   q5 "adverse possession": in the topics, not in the qrels → skipped.
 * Means over q1–q3: recall@10 = 2/3, nDCG@10 = (1 + 0.630930 + 0)/3 = 0.543643, MRR@10 = 1.5/3 = 0.5, MAP = 1.5/3 = 0.5.
 * With --complete (q4 counts as 0, 4 topics): recall@10 = 2/4, MAP = 1.5/4 = 0.375.
 * `eval retrieval --topics` searched q4 and got no hit: q4 is in bm25's run with nothing retrieved and
 * scores 0 there — the numbers of `eval run --complete` on the written file (which has no q4 line) —
 * so every method, dense included (which always has hits), is scored over the same 4 topics.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../tests/support/run-cli.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../../tests/support/fake-embedding-server.js';

const cli = (...args: string[]) => runCli(args);

const passages = [
  { id: 'p-hear1', text: 'A hearsay statement is offered to prove the truth of the matter asserted.' },
  { id: 'p-hear2', text: 'Hearsay exceptions include the excited utterance.' },
  { id: 'p-adverse', text: 'Adverse possession requires hostile and continuous possession.' },
  { id: 'p-contract', text: 'A promise without consideration is unenforceable.' },
  { id: 'p-murder', text: 'Murder requires malice aforethought.' },
  { id: 'p-tax', text: 'Income tax applies to wages.' },
];
const topicsTsv = 'q1\thearsay statement truth\nq2\thostile possession consideration\nq3\tmurder malice\nq4\tzoning variance\nq5\tadverse possession\n';
const qrelsTxt =
  ['q1 0 p-hear1 2', 'q1 0 p-hear2 1', 'q1 0 p-tax 0', 'q2 0 p-contract 1', 'q2 0 p-adverse 0', 'q3 0 p-murder 0', 'q4 0 p-tax 1'].join('\n') + '\n';

let dir: string;
let index: string;
let topics: string;
let qrels: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-trec-cli-'));
  const corpus = join(dir, 'mine.jsonl');
  index = join(dir, 'idx');
  topics = join(dir, 't.tsv');
  qrels = join(dir, 'qrels.txt');
  await writeFile(corpus, passages.map((p) => JSON.stringify(p)).join('\n') + '\n');
  await writeFile(topics, topicsTsv);
  await writeFile(qrels, qrelsTxt);
  const r = await cli('index', 'build', corpus, '--out', index, '--workers', '0', '--json');
  expect(r.code).toBe(0);
});

afterEach(() => {
  process.exitCode = 0;
});

describe('search --topics → eval run (the round trip)', () => {
  it('an approximate batch (--approx-postings) tags its run lines and summary as approximate, also a tag the user named', async () => {
    const runFile = join(dir, 'runs', 'bm25-approx.txt');
    const s = await cli(
      '--json',
      'search',
      '--topics',
      topics,
      '--index',
      index,
      '--method',
      'bm25',
      '-k',
      '10',
      '--run-file',
      runFile,
      '--approx-postings',
      '0.5',
    );
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ approximate: { postingShare: 0.5 }, tag: 'lexcase-bm25-approx0.5' });
    const lines = (await readFile(runFile, 'utf8')).trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => l.endsWith(' lexcase-bm25-approx0.5'))).toBe(true);
    const named = await cli(
      '--json',
      'search',
      '--topics',
      topics,
      '--index',
      index,
      '--method',
      'qld',
      '--run-file',
      runFile,
      '--run-tag',
      'mine',
      '--approx-max-postings',
      '3',
    );
    expect(JSON.parse(named.stdout)).toMatchObject({ approximate: { maxPostings: 3 }, tag: 'mine-approx-max3' });
    const human = await cli('search', '--topics', topics, '--index', index, '--method', 'qld', '--run-file', runFile, '--approx-postings', '0.25');
    expect(human.stdout).toMatch(/5 topics · qld · APPROXIMATE/);
  });

  it('writes a TREC run and evaluates it with trec_eval semantics', async () => {
    const runFile = join(dir, 'runs', 'bm25.txt');
    const s = await cli(
      '--json',
      'search',
      '--topics',
      topics,
      '--index',
      index,
      '--method',
      'bm25',
      '-k',
      '10',
      '--run-file',
      runFile,
      '--run-tag',
      'mine-bm25',
    );
    expect(s.stderr).toBe('');
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ topics: 5, method: 'bm25', k: 10, runFile, tag: 'mine-bm25', emptyTopics: 1 });
    const lines = (await readFile(runFile, 'utf8')).trim().split('\n');
    expect(lines[0]).toMatch(/^q1 Q0 p-hear1 1 \d+\.\d{6} mine-bm25$/);
    expect(lines.filter((l) => l.startsWith('q2 ')).map((l) => l.split(' ')[2])).toEqual(['p-adverse', 'p-contract']);
    expect(lines.some((l) => l.startsWith('q4 '))).toBe(false);

    const e = await cli('--json', 'eval', 'run', runFile, '--qrels', qrels, '--metrics', 'recall@10,ndcg@10,mrr@10,map');
    expect(e.code).toBe(0);
    const out = JSON.parse(e.stdout);
    const mean = (m: string) => out.run.means[m].estimate;
    expect(out.run.n).toBe(3);
    expect(mean('recall@10')).toBeCloseTo(2 / 3, 12);
    expect(mean('ndcg@10')).toBeCloseTo((1 + 1 / Math.log2(3)) / 3, 12);
    expect(mean('mrr@10')).toBeCloseTo(0.5, 12);
    expect(mean('map')).toBeCloseTo(0.5, 12);
    expect(out.run.perTopic.map((t: { qid: string }) => t.qid)).toEqual(['q1', 'q2', 'q3']);
    expect(out.run.perTopic[1].values).toMatchObject({ 'recall@10': 1, 'mrr@10': 0.5, map: 0.5 });
    expect(out.run.topics.missingFromRun).toMatchObject({ count: 1, examples: ['q4'], countedAsZero: false });
    expect(out.run.topics.notInQrels.examples).toEqual(['q5']);
    expect(out.run.means.map).toMatchObject({ level: 0.95, n: 3 });

    const c = JSON.parse((await cli('--json', 'eval', 'run', runFile, '--qrels', qrels, '--metrics', 'recall@10,map', '--complete')).stdout);
    expect(c.run.n).toBe(4);
    expect(c.run.means['recall@10'].estimate).toBeCloseTo(0.5, 12);
    expect(c.run.means.map.estimate).toBeCloseTo(0.375, 12);

    const human = await cli('eval', 'run', runFile, '--qrels', qrels);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/\| system +\| +recall@10 \| +recall@100 \| +ndcg@10 \| +mrr@10 \| +map \|/);
    expect(human.stdout).toContain('1 qrels topic missing from the run (q4)');
    expect(human.stdout).not.toMatch(/barexam|856,835/i);
  });

  /** `eval retrieval` over this file's topics, qrels and index, then `extra`. */
  const evalTopics = (...extra: string[]) => ['eval', 'retrieval', '--topics', topics, '--qrels', qrels, '--index', index, ...extra];

  it('eval retrieval --topics --qrels gives the numbers of eval run --complete on the written file (q4, searched with no hit, scores 0)', async () => {
    const runFile = join(dir, 'runs2', 'r.txt');
    const r = await cli('--json', ...evalTopics('--method', 'bm25,qld', '--run-file', runFile, '--iterations', '300'));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep).toMatchObject({ kind: 'trec-retrieval-eval', topics: { n: 5 }, qrels: { topics: 4, judgements: 7 }, depth: 1000 });
    expect(rep.results.map((x: { method: string }) => x.method)).toEqual(['bm25', 'qld']);
    const bm25 = rep.results[0];
    // q4 got no hit: no line in the run file, so `eval run` counts it (at 0) only with --complete
    const e = JSON.parse((await cli('--json', 'eval', 'run', join(dir, 'runs2', 'r.bm25.txt'), '--qrels', qrels, '--iterations', '300', '--complete')).stdout);
    const flagless = (ts: { missingFromRun?: boolean; noHits?: boolean }[]) => ts.map(({ missingFromRun: _m, noHits: _n, ...t }) => t);
    expect(bm25.metrics).toEqual(e.run.metrics);
    expect(bm25.means).toEqual(e.run.means);
    expect(flagless(bm25.perTopic)).toEqual(flagless(e.run.perTopic));
    expect(bm25.perTopic.find((t: { qid: string }) => t.qid === 'q4')).toMatchObject({ noHits: true, numRet: 0 });
    expect(bm25.noHits).toEqual({ count: 1, examples: ['q4'] });
    expect(bm25.means['ndcg@10'].estimate).toBeCloseTo((1 + 1 / Math.log2(3)) / 4, 12);

    const human = await cli(...evalTopics('--iterations', '100'));
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Corpus: **mine.jsonl** (6 passages)');
    expect(human.stdout).not.toMatch(/barexam|856,835|dataset/i);
  });

  it('says when a metric is cut deeper than the hits retrieved (recall@5 over 2 hits is recall@2), on stderr, in --json and in the report', async () => {
    const args = evalTopics('--hits', '2', '--metrics', 'recall@2,recall@5,p@5', '--iterations', '100');
    const j = await cli('--json', ...args);
    expect(j.code, j.stderr).toBe(0);
    const rep = JSON.parse(j.stdout);
    const said = 'recall@5, p@5 are cut deeper than the 2 hits retrieved a topic (--hits 2): they count only those 2; give --hits 5 to rank 5';
    expect(rep.warnings).toEqual([said]);
    expect(j.stderr).toContain(said);
    // the figure is what trec_eval computes on the 2-hit run: recall@5 = recall@2
    expect(rep.results[0].means['recall@5'].estimate).toBe(rep.results[0].means['recall@2'].estimate);
    const human = await cli(...args);
    expect(human.stdout).toContain(`**Warning:** ${said}.`);
    const deep = await cli('--json', ...evalTopics('--metrics', 'recall@5', '--iterations', '100'));
    expect(JSON.parse(deep.stdout).warnings).toBeUndefined();
    expect(deep.stderr).toBe('');
  });

  it('a hybrid shallower than a metric names that metric (before: only "--hits 1000: @1000 is beyond", recall@5 and map unnamed)', async () => {
    const args = evalTopics('--method', 'hybrid', '--hybrid-methods', 'bm25,qld', '--depth', '2', '--metrics', 'recall@1,recall@5,map', '--iterations', '100');
    const j = await cli('--json', ...args);
    expect(j.code, j.stderr).toBe(0);
    const said =
      "recall@5, map are beyond the hybrid depth 2: it fuses each component's top 2 hits, so those figures count only passages a component ranks within its top 2; use --depth 1000 to rank 1000 fully";
    expect(JSON.parse(j.stdout).warnings).toEqual([said]);
    expect(j.stderr).toContain(said);
    const human = await cli(...args);
    expect(human.stdout).toContain(`**Warning:** ${said}.`);
  });

  it('paired comparison of two runs (bm25 vs a run file edited to be worse)', async () => {
    const a = join(dir, 'runs', 'bm25.txt');
    const text = await readFile(a, 'utf8');
    const worse = join(dir, 'runs', 'worse.txt');
    // drop q1's best passage → q1: only p-hear2 at rank 1: recall 1/2, AP = (1/1)/2 = 0.5
    await writeFile(
      worse,
      text
        .split('\n')
        .filter((l) => !l.startsWith('q1 Q0 p-hear1 '))
        .join('\n'),
    );
    const r = JSON.parse((await cli('--json', 'eval', 'run', a, '--qrels', qrels, '--metrics', 'recall@10,map', '--compare', worse)).stdout);
    expect(r.comparison.shared).toBe(3);
    // B − A: the --compare run (worse) minus the run evaluated
    expect(r.comparison.metrics['recall@10'].estimate).toBeCloseTo((0.5 - 1) / 3, 12);
    expect(r.comparison.metrics.map.estimate).toBeCloseTo((0.5 - 1) / 3, 12);
    expect(r.comparison.metrics.map).toHaveProperty('p');
  });
});

/**
 * A topic one method cannot answer: q4 "zoning variance" has no term in the corpus, so bm25 gets no
 * hit, while dense (an OpenAI-compatible embedder on 127.0.0.1, vectors from the letters of the
 * text) ranks all 6 passages for every topic. Both are scored over the same 4 judged topics: bm25's
 * q4 counts as 0 (recall@10 2/4, MAP 1.5/4, not 2/3 and 0.5 over 3 topics), the header's accounting
 * holds for both rows in either order, and it names bm25's topic without hits.
 */
describe('eval retrieval --topics with several methods: the same topics for every method', () => {
  let server: FakeEmbeddingServer;
  let denseIndex: string;
  const saved: Record<string, string | undefined> = {};
  const env: Record<string, string> = {};
  /** 8 dimensions: letter counts by char code mod 8, plus a constant (never a zero vector). */
  const vectorOf = (text: string) => {
    const v = [1, 0, 0, 0, 0, 0, 0, 0];
    for (const c of text.toLowerCase()) if (c >= 'a' && c <= 'z') v[c.charCodeAt(0) % 8] += 1;
    return v;
  };

  beforeAll(async () => {
    server = await startFakeEmbeddingServer(vectorOf, 'letters');
    Object.assign(env, server.env);
    for (const [k, v] of Object.entries(env)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    denseIndex = join(dir, 'idx-dense');
    const r = await cli(
      'index',
      'build',
      join(dir, 'mine.jsonl'),
      '--out',
      denseIndex,
      '--workers',
      '0',
      '--methods',
      'bm25,dense',
      '--embedder',
      'openai',
      '--json',
    );
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await server?.close();
  });
  beforeEach(() => {
    Object.assign(process.env, env);
  });

  const evalTopics = (...extra: string[]) =>
    cli('eval', 'retrieval', '--topics', topics, '--qrels', qrels, '--index', denseIndex, '--metrics', 'recall@10,map', '--iterations', '100', ...extra);

  it('--json: every method has the same n, and bm25 counts q4 (no hit) as 0', async () => {
    const r = await evalTopics('--method', 'dense,bm25', '--json');
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    const [dense, bm25] = j.results;
    expect([dense.method, bm25.method]).toEqual(['dense', 'bm25']);
    expect(dense.n).toBe(4);
    expect(bm25.n).toBe(4);
    expect(j.topics).toMatchObject({ n: 5, evaluated: 4 });
    expect(bm25.topics.missingFromRun.count).toBe(0);
    expect(bm25.perTopic.map((t: { qid: string }) => t.qid)).toEqual(['q1', 'q2', 'q3', 'q4']);
    expect(bm25.perTopic[3]).toMatchObject({ qid: 'q4', noHits: true, numRet: 0, values: { 'recall@10': 0, map: 0 } });
    expect(bm25.means['recall@10'].estimate).toBeCloseTo(2 / 4, 12);
    expect(bm25.means.map.estimate).toBeCloseTo(1.5 / 4, 12);
    expect(bm25.noHits).toEqual({ count: 1, examples: ['q4'] });
    expect(dense.noHits).toEqual({ count: 0, examples: [] });
    expect(dense.perTopic.find((t: { qid: string }) => t.qid === 'q4').numRet).toBe(6);
  });

  it('the header holds for every row, in either order, and names the topic bm25 got no hit for', async () => {
    for (const order of ['dense,bm25', 'bm25,dense']) {
      const runFile = join(dir, `runs-${order.replace(',', '-')}`, 'r.txt');
      const r = await evalTopics('--method', order, '--per-topic', '--run-file', runFile);
      expect(r.code, r.stderr).toBe(0);
      const out = r.stdout;
      expect(out, order).toContain('Topics evaluated: 4 (run 5, qrels 4;');
      expect(out, order).not.toMatch(/Skipped: .*missing from the run/);
      expect(out, order).toContain('Every method is scored over the same 4 topics (n).');
      expect(out, order).toContain(
        `bm25 returned no hits for 1 topic (q4): it scores 0 there and is in the mean; its run file ${runFile.replace(/\.txt$/, '.bm25.txt')} has no line for it (TREC format), so \`eval run\` of that file needs --complete to count it.`,
      );
      expect(out, order).not.toMatch(/dense returned no hits/);
      expect(out, order).toMatch(/\| bm25 +\| 0\.5000 /);
      expect(out, order).toMatch(/\| q4 \(no hits\) +\| +1 \| +0 \| +0 \|/);
    }
  });
});

describe('clear errors, exit 1, no stack trace', () => {
  const expectError = async (args: string[], re: RegExp) => {
    const r = await cli(...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(re);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  };

  it('topics files: missing tab, empty text, duplicate qid, a format neither the extension nor the first line tells, an unknown --topics-format', async () => {
    const bad = join(dir, 'bad.tsv');
    await writeFile(bad, 'q1\thearsay\nq2 no tab here\n');
    await expectError(
      ['search', '--topics', bad, '--index', index, '--run-file', join(dir, 'x.txt')],
      new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: expected "qid<TAB>text", found no tab`),
    );
    await writeFile(bad, 'q1\thearsay\nq2\t  \n');
    await expectError(['search', '--topics', bad, '--index', index, '--run-file', join(dir, 'x.txt')], /bad\.tsv:2: topic "q2" has an empty text/);
    await writeFile(bad, 'q1\thearsay\nq1\tmurder\n');
    await expectError(['search', '--topics', bad, '--index', index, '--run-file', join(dir, 'x.txt')], /bad\.tsv:2: duplicate qid "q1" \(first on line 1\)/);
    const odd = join(dir, 'topics.dat');
    await writeFile(odd, 'q1 hearsay\n');
    await expectError(
      ['search', '--topics', odd, '--index', index, '--run-file', join(dir, 'x.txt')],
      /topics\.dat:1: cannot tell the topics format.*--topics-format tsv\|jsonl\|trec\|msmarco/s,
    );
    // An extension that says nothing: the first line does (JSONL here).
    await writeFile(odd, '{"id": "q1", "text": "hearsay"}\n');
    const ok = await cli('--json', 'search', '--topics', odd, '--index', index, '--run-file', join(dir, 'x.txt'));
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).topics).toBe(1);
    await expectError(
      ['search', '--topics', odd, '--topics-format', 'sgml', '--index', index, '--run-file', join(dir, 'x.txt')],
      /--topics-format: expected auto, tsv, jsonl, trec, msmarco, got "sgml"/,
    );
  });

  it('search: --topics without --run-file, or with a query', async () => {
    await expectError(['search', '--topics', topics, '--index', index], /--topics needs --run-file OUT/);
    await expectError(
      ['search', 'hearsay', '--topics', topics, '--index', index, '--run-file', join(dir, 'y.txt')],
      /either a query or --topics FILE, not both/,
    );
    await expectError(['search', '--index', index], /give a query \(quoted\) or --topics FILE --run-file OUT/);
  });

  it('eval: malformed qrels line, --topics without --qrels, dataset flags with --topics', async () => {
    const bad = join(dir, 'bad-qrels.txt');
    await writeFile(bad, 'q1 0 p-hear1 2\nq1 0 p-hear2 yes\n');
    await expectError(['eval', 'run', join(dir, 'runs', 'bm25.txt'), '--qrels', bad], /bad-qrels\.txt:2: relevance "yes" is not an integer grade/);
    await expectError(['eval', 'retrieval', '--topics', topics, '--index', index], /--topics needs --qrels FILE/);
    await expectError(
      ['eval', 'retrieval', '--topics', topics, '--qrels', qrels, '--index', index, '--split', 'test'],
      /--split belongs to the --dataset mode/,
    );
    // before: --sweep-fusion with --topics was ignored, a plain bm25 table printed and exit 0
    await expectError(
      ['eval', 'retrieval', '--topics', topics, '--qrels', qrels, '--index', index, '--sweep-fusion'],
      /--sweep-fusion tunes hybrid fusion on the Bar Exam QA dataset \(--split\); with --topics it is not available/,
    );
    await expectError(['eval', 'run', join(dir, 'nope.txt'), '--qrels', qrels], /run file not found: .*nope\.txt/);
    await expectError(['eval', 'retrieval', '--index', index, '--metrics', 'map'], /--metrics works with --topics FILE --qrels FILE/);
  });
});
