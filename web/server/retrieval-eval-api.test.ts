/**
 * The explorer's retrieval evaluation of a user's topics+qrels set gives the figures of
 * `lexcase eval retrieval --topics … --qrels …` on the same index, under the same names: the same
 * topic accounting, graded nDCG, relevance level 1, ties by docid descending, and the whole query
 * searched. The set has one topic of each kind that once set the two apart:
 *   long   2,146 characters, its only corpus terms ("hearsay statement truth") from offset 2,100:
 *          p-hear1 first (a query cut at 2,000 characters found nothing);
 *   tie    "zebra crossing": dup1, dup2, dup3 share one text (one score); gold dup1 is third in
 *          trec_eval's order (docid descending), RR 1/3;
 *   graded "hearsay excited utterance": p-hear2 (grade 1) above p-hear1 (grade 2), so graded nDCG
 *          (0.7967) is not binary nDCG (1);
 *   norel  "murder malice": judged, no relevant document: 0 on every measure and in the mean;
 *   extra  not in the qrels: skipped by both.
 */
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tests/support/run-cli.js';
import { startExplorer, type ExplorerServer } from './server.js';
import { EVAL_METRICS, QUERY_SHOWN } from './retrieval-eval-api.js';

const passages = [
  { id: 'p-hear1', text: 'A hearsay statement is offered to prove the truth of the matter asserted.' },
  { id: 'p-hear2', text: 'Hearsay exceptions include the excited utterance.' },
  { id: 'dup1', text: 'The zebra crossing gives pedestrians the right of way.' },
  { id: 'dup2', text: 'The zebra crossing gives pedestrians the right of way.' },
  { id: 'dup3', text: 'The zebra crossing gives pedestrians the right of way.' },
  { id: 'p-murder', text: 'Murder requires malice aforethought.' },
  { id: 'p-tax', text: 'Income tax applies to wages.' },
];
const longQuery = `${'qqq '.repeat(525)}hearsay statement truth ${'w'.repeat(22)}`;
const topicsTsv = [`long\t${longQuery}`, 'tie\tzebra crossing', 'graded\thearsay excited utterance', 'norel\tmurder malice', 'extra\tincome tax'].join('\n');
const qrelsTxt = ['long 0 p-hear1 1', 'tie 0 dup1 1', 'graded 0 p-hear1 2', 'graded 0 p-hear2 1', 'norel 0 p-murder 0'].join('\n');

let dir: string;
let index: string;
let topics: string;
let qrels: string;
let s: ExplorerServer;
/** The mtime the same-size qrels file is given after each write (a fixed instant, not the clock). */
const QRELS_MTIME = new Date('2026-12-01T10:00:00Z');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-explorer-eval-'));
  index = join(dir, 'idx');
  topics = join(dir, 'topics.tsv');
  qrels = join(dir, 'qrels.txt');
  await writeFile(join(dir, 'mine.jsonl'), `${passages.map((p) => JSON.stringify(p)).join('\n')}\n`);
  await writeFile(topics, `${topicsTsv}\n`);
  await writeFile(qrels, `${qrelsTxt}\n`);
  expect((await runCli(['index', 'build', join(dir, 'mine.jsonl'), '--out', index, '--workers', '0', '--json'])).code).toBe(0);
  await writeFile(join(dir, 'nohit.tsv'), 'q1\thearsay statement\nq3\tzygote xylophone\n');
  await writeFile(join(dir, 'nohit.qrels'), 'q1 0 p-hear1 1\nq3 0 p-tax 1\n');
  await writeFile(join(dir, 'edited.tsv'), 'e1\thearsay excited utterance\n');
  await writeFile(join(dir, 'edited.qrels'), 'e1 0 p-hear2 1\n');
  await writeFile(join(dir, 'same-size.tsv'), 'e1\thearsay excited utterance\n');
  await writeFile(join(dir, 'same-size.qrels'), 'e1 0 p-hear2 1\n');
  await utimes(join(dir, 'same-size.qrels'), QRELS_MTIME, QRELS_MTIME);
  // a qrels file judging one passage this index does not hold (p-gone) beside one it does
  await writeFile(join(dir, 'gone.tsv'), 'g1\thearsay statement\n');
  await writeFile(join(dir, 'gone.qrels'), 'g1 0 p-hear1 1\ng1 0 p-gone 1\n');
  // a qrels file judging a topic (q17) the topics file has no line for
  await writeFile(join(dir, 'qrels-only.tsv'), 'q1\thearsay statement\n');
  await writeFile(join(dir, 'qrels-only.qrels'), 'q1 0 p-hear1 1\nq17 0 p-tax 1\n');
  s = await startExplorer({
    index,
    port: 0,
    evalSets: [
      { topics, qrels, name: 'mine' },
      { topics: join(dir, 'nohit.tsv'), qrels: join(dir, 'nohit.qrels'), name: 'nohit' },
      { topics: join(dir, 'edited.tsv'), qrels: join(dir, 'edited.qrels'), name: 'edited' },
      { topics: join(dir, 'same-size.tsv'), qrels: join(dir, 'same-size.qrels'), name: 'same-size' },
      { topics: join(dir, 'gone.tsv'), qrels: join(dir, 'gone.qrels'), name: 'gone' },
      { topics: join(dir, 'qrels-only.tsv'), qrels: join(dir, 'qrels-only.qrels'), name: 'qrels-only' },
    ],
  });
}, 120_000);

afterEach(() => {
  process.exitCode = 0;
});

afterAll(async () => {
  await s?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('explorer retrieval evaluation of a topics+qrels set', () => {
  it('equals eval retrieval --topics --qrels: long topic searched whole, tie order, no-relevant topic in the mean, graded nDCG', async () => {
    expect(longQuery.length).toBe(2146);
    expect(longQuery.indexOf('hearsay')).toBe(2100);
    const res = await fetch(`${s.url}/api/eval/retrieval?set=user:1&methods=bm25,qld&a=bm25&b=qld&metric=ndcg@10`);
    expect(res.status).toBe(200);
    const api = (await res.json()) as {
      skipped: number;
      results: { method: string; n: number; metrics: Record<string, { estimate: number; lo: number | null; hi: number | null }> }[];
      queries: { id: string; query: string; queryChars: number; queryTruncated: boolean; relevant: number; firstRank: Record<string, number | null> }[];
    };
    const r = await runCli([
      '--json',
      'eval',
      'retrieval',
      '--topics',
      topics,
      '--qrels',
      qrels,
      '--index',
      index,
      '--method',
      'bm25,qld',
      '--metrics',
      EVAL_METRICS.join(','),
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const cli = JSON.parse(r.stdout) as {
      results: { method: string; n: number; means: Record<string, { estimate: number; lo: number | null; hi: number | null }> }[];
    };
    for (const method of ['bm25', 'qld']) {
      const a = api.results.find((x) => x.method === method)!;
      const c = cli.results.find((x) => x.method === method)!;
      expect(a.n).toBe(4);
      expect(c.n).toBe(4);
      for (const m of EVAL_METRICS) {
        const { estimate, lo, hi } = c.means[m];
        expect([method, m, a.metrics[m].estimate, a.metrics[m].lo, a.metrics[m].hi]).toEqual([method, m, estimate, lo, hi]);
      }
    }
    // the per-topic facts behind those means (bm25)
    const bm25 = cli.results.find((x) => x.method === 'bm25')!;
    expect(bm25.means['mrr@10'].estimate).toBeCloseTo((1 + 1 / 3 + 1 + 0) / 4, 12);
    const gradedNdcg = (1 / 1 + 2 / Math.log2(3)) / (2 / 1 + 1 / Math.log2(3));
    expect(bm25.means['ndcg@10'].estimate).toBeCloseTo((1 + 0.5 + gradedNdcg + 0) / 4, 12);
    expect(api.skipped).toBe(1);
    const row = (id: string) => api.queries.find((q) => q.id === id)!;
    expect(api.queries.map((q) => q.id)).toEqual(['long', 'tie', 'graded', 'norel']);
    expect(row('long')).toMatchObject({ queryChars: 2146, queryTruncated: true, firstRank: { bm25: 1, qld: 1 } });
    expect(row('long').query).toHaveLength(QUERY_SHOWN);
    expect(row('tie')).toMatchObject({ queryTruncated: false, firstRank: { bm25: 3, qld: 3 } });
    expect(row('norel')).toMatchObject({ relevant: 0, firstRank: { bm25: null } });
  }, 60_000);

  it('the paired footnote names the bootstrap settings the comparison used, word for word as `eval run --compare` (it always named 2,000 resamples, seed 13)', async () => {
    const runFile = join(dir, 'cmp.txt');
    const wrote = await runCli(['eval', 'retrieval', '--topics', topics, '--qrels', qrels, '--index', index, '--method', 'bm25,qld', '--run-file', runFile]);
    expect(wrote.code, wrote.stderr).toBe(0);
    /** The footnote `eval run A --compare B` prints (its last line that starts "Δ = B − A"). */
    const cliNote = async (...settings: string[]) => {
      const r = await runCli([
        'eval',
        'run',
        join(dir, 'cmp.bm25.txt'),
        '--qrels',
        qrels,
        '--compare',
        join(dir, 'cmp.qld.txt'),
        '--metrics',
        'ndcg@10',
        ...settings,
      ]);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout
        .split('\n')
        .filter((l) => l.startsWith('Δ = B − A'))
        .at(-1)!;
    };
    const explorer = async (settings: string) => {
      const res = await fetch(`${s.url}/api/eval/retrieval?set=user:1&methods=bm25,qld&a=bm25&b=qld&metric=ndcg@10${settings}`);
      expect(res.status).toBe(200);
      return (await res.json()) as { pairedNote: string; paired: { bootstrap: { iterations: number; seed: number } } };
    };
    const other = await explorer('&iterations=500&seed=7');
    expect(other.paired.bootstrap).toEqual({ iterations: 500, seed: 7 });
    expect(other.pairedNote).toMatch(/ This comparison: 500 resamples, seed 7\.$/);
    expect(other.pairedNote).toBe(await cliNote('--iterations', '500', '--seed', '7'));
    const shared = await explorer('');
    expect(shared.paired.bootstrap).toEqual({ iterations: 2000, seed: 13 });
    expect(shared.pairedNote).not.toMatch(/This comparison/);
    expect(shared.pairedNote).toBe(await cliNote());
    expect((await fetch(`${s.url}/api/eval/retrieval?set=user:1&methods=bm25,qld&iterations=0`)).status).toBe(400);
  }, 60_000);

  it('a topic the search got no hit for: the note says it scores 0 and is in the mean (it said nothing, and the docs said skipped)', async () => {
    const res = await fetch(`${s.url}/api/eval/retrieval?set=user:2&methods=bm25`);
    expect(res.status).toBe(200);
    const api = (await res.json()) as { skipped: number; skippedNote: string; results: { n: number; metrics: Record<string, { estimate: number }> }[] };
    expect(api.results[0].n).toBe(2);
    expect(api.skipped).toBe(0);
    expect(api.results[0].metrics['recall@1'].estimate).toBe(0.5);
    expect(api.skippedNote).toContain('bm25 returned no hits for 1 topic (q3): it scores 0 there and is in the mean');
  });

  it('a judged topic with no line in the topics file is said, as eval retrieval says it (before: said nowhere)', async () => {
    const res = await fetch(`${s.url}/api/eval/retrieval?set=user:6&methods=bm25`);
    expect(res.status).toBe(200);
    const api = (await res.json()) as { skippedNote: string; results: { n: number }[] };
    expect(api.results[0].n).toBe(1);
    expect(api.skippedNote).toContain(
      '1 judged topic with no line in the topics file not searched and left out of n (q17; `eval retrieval --complete` counts it as 0)',
    );
    const cli = await runCli([
      'eval',
      'retrieval',
      '--topics',
      join(dir, 'qrels-only.tsv'),
      '--qrels',
      join(dir, 'qrels-only.qrels'),
      '--index',
      index,
      '--method',
      'bm25',
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(`${cli.stdout}${cli.stderr}`).toMatch(/1 qrels topic missing from the run \(q17\)/);
  });

  it("every method's no-hit topics are said, not only the first method's (qld's q3, scored 0, went unsaid)", async () => {
    const res = await fetch(`${s.url}/api/eval/retrieval?set=user:2&methods=bm25,qld`);
    expect(res.status).toBe(200);
    const api = (await res.json()) as { skippedNote: string; results: { method: string; metrics: Record<string, { estimate: number }> }[] };
    // neither method can find "zygote xylophone": both score 0 on q3, and the note says so for both
    expect(api.results.map((r) => r.metrics['recall@1'].estimate)).toEqual([0.5, 0.5]);
    expect(api.skippedNote).toContain('bm25 returned no hits for 1 topic (q3)');
    expect(api.skippedNote).toContain('qld returned no hits for 1 topic (q3)');
  });

  it('a misspelt or empty parameter is a 400 naming it, not the default metric or seed 0', async () => {
    for (const [q, message] of [
      // before: metrc was dropped and the paired comparison was of recall@10
      ['metrc=ndcg@10', 'retrieval eval: unknown field "metrc"; did you mean "metric"?'],
      // before: z.coerce took an empty seed as seed 0 and 0x7 as 7
      ['seed=', 'seed takes a whole number from 0 to 2147483647 in decimal digits'],
      ['seed=0x7', 'seed takes a whole number from 0 to 2147483647 in decimal digits'],
      ['iterations=1e3', 'iterations takes a whole number from 100 to 100000 in decimal digits'],
    ] as const) {
      const res = await fetch(`${s.url}/api/eval/retrieval?set=user:1&methods=bm25,qld&${q}`);
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: string }).error, q).toContain(message);
    }
    const progress = await fetch(`${s.url}/api/eval/progress?set=user:1&methods=bm25&metric=mrr@10`);
    expect(progress.status).toBe(400);
    const sets = await fetch(`${s.url}/api/eval/sets?set=user:1`);
    expect(sets.status).toBe(400);
    const ok = await fetch(`${s.url}/api/eval/retrieval?set=user:1&methods=bm25,qld&seed=7&iterations=500`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { paired: { bootstrap: unknown } }).paired.bootstrap).toEqual({ iterations: 500, seed: 7 });
  });

  it('qrels edited while the explorer is open: the next evaluation is of the file as it is now, as eval retrieval gives it (it kept the first figures)', async () => {
    type Api = { results: { metrics: Record<string, { estimate: number }> }[] };
    const mrr = async () => ((await (await fetch(`${s.url}/api/eval/retrieval?set=user:3&methods=bm25`)).json()) as Api).results[0].metrics;
    // "hearsay excited utterance": p-hear2 first, p-hear1 second
    expect((await mrr())['mrr@10'].estimate).toBe(1);
    await writeFile(join(dir, 'edited.qrels'), 'e1 0 p-hear1 1\ne1 0 p-tax 0\n');
    const now = await mrr();
    expect(now['mrr@10'].estimate).toBe(0.5);
    expect(now['recall@1'].estimate).toBe(0);
    const cli = await runCli([
      'eval',
      'retrieval',
      '--index',
      index,
      '--method',
      'bm25',
      '--topics',
      join(dir, 'edited.tsv'),
      '--qrels',
      join(dir, 'edited.qrels'),
      '--json',
    ]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/"mrr@10":\s*\{[^}]*"estimate":\s*0\.5/);
  }, 60_000);

  it('qrels edited at the same size with the mtime set back (touch -r): the figures are of the file as it is now (it kept the first figures)', async () => {
    type Api = { results: { metrics: Record<string, { estimate: number }> }[] };
    const metrics = async () => ((await (await fetch(`${s.url}/api/eval/retrieval?set=user:4&methods=bm25`)).json()) as Api).results[0].metrics;
    const f = join(dir, 'same-size.qrels');
    // "hearsay excited utterance": p-hear2 first, p-hear1 second
    expect((await metrics())['mrr@10'].estimate).toBe(1);
    const before = await stat(f, { bigint: true });
    await writeFile(f, 'e1 0 p-hear1 1\n');
    await utimes(f, QRELS_MTIME, QRELS_MTIME);
    const after = await stat(f, { bigint: true });
    // what a stat-based key sees: nothing changed
    expect([after.size, after.mtimeNs, after.ino]).toEqual([before.size, before.mtimeNs, before.ino]);
    const now = await metrics();
    expect(now['mrr@10'].estimate).toBe(0.5);
    expect(now['recall@1'].estimate).toBe(0);
  }, 60_000);

  it('a relevant judgement naming a passage the index does not hold: the view warns as eval retrieval --topics does (it showed recall@100 0.500 with no word)', async () => {
    const res = await fetch(`${s.url}/api/eval/retrieval?set=user:5&methods=bm25`);
    expect(res.status).toBe(200);
    const api = (await res.json()) as { warnings: string[]; results: { metrics: Record<string, { estimate: number }> }[] };
    // the figure is trec_eval's (p-gone relevant and never retrieved), and said
    expect(api.results[0].metrics['recall@100'].estimate).toBe(0.5);
    expect(api.warnings).toEqual([
      '1 of 2 relevant judgements (1 topic) name passages not in this index (e.g. "p-gone"): they count as relevant and never retrieved, which lowers recall, MAP, nDCG and the other figures of those topics; check that the qrels are for this index\'s passages',
    ]);
    const cli = await runCli([
      'eval',
      'retrieval',
      '--index',
      index,
      '--method',
      'bm25',
      '--topics',
      join(dir, 'gone.tsv'),
      '--qrels',
      join(dir, 'gone.qrels'),
    ]);
    expect(cli.code).toBe(0);
    expect(cli.stderr).toContain(`1 of 2 relevant judgements (1 topic) name passages not in ${index} (e.g. "p-gone")`);
  }, 60_000);

  it('a bundled split on an index without its gold passages is refused as eval retrieval refuses it (it showed Recall@k 0.000 [0.000, 0.030] over 124 topics)', async () => {
    const res = await fetch(`${s.url}/api/eval/retrieval?set=barexam:val&methods=bm25`);
    const body = (await res.json()) as { error: string };
    expect(res.status).toBe(400);
    expect(body.error).toMatch(
      /none of the 124 topics of set "Bar Exam QA val \(bundled, split seed 13\)" has its gold passage in this index \(corpus mine\.jsonl, e\.g\. mbe_137, .* are missing\): every metric would be 0/,
    );
    const cli = await runCli(['eval', 'retrieval', '--index', index, '--method', 'bm25', '--split', 'val']);
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toMatch(/none of the 124 questions of dataset "barexam" split "val" has its gold passage in index .* every metric would be 0/);
  }, 60_000);

  it('a topic with more than 50 relevant passages: every one reaches the search view (it counted "50 of the topic\'s 50" for 80)', async () => {
    const many = await mkdtemp(join(tmpdir(), 'lexcase-explorer-many-rel-'));
    const ids = Array.from({ length: 80 }, (_, i) => `alpha-${i}`);
    await writeFile(join(many, 'c.jsonl'), `${ids.map((id, i) => JSON.stringify({ id, text: `alpha statute ${i}` })).join('\n')}\n`);
    await writeFile(join(many, 't.tsv'), 'a1\talpha statute\n');
    await writeFile(join(many, 'q.txt'), `${ids.map((id) => `a1 0 ${id} 1`).join('\n')}\n`);
    expect((await runCli(['index', 'build', join(many, 'c.jsonl'), '--out', join(many, 'idx'), '--workers', '0', '--json'])).code).toBe(0);
    const e = await startExplorer({ index: join(many, 'idx'), port: 0, evalSets: [{ topics: join(many, 't.tsv'), qrels: join(many, 'q.txt'), name: 'many' }] });
    try {
      const api = (await (await fetch(`${e.url}/api/eval/retrieval?set=user:1&methods=bm25`)).json()) as {
        queries: { relevant: number; relevantIds: string[] }[];
      };
      expect(api.queries[0].relevant).toBe(80);
      expect([...api.queries[0].relevantIds].sort()).toEqual([...ids].sort());
    } finally {
      await e.close();
      await rm(many, { recursive: true, force: true });
    }
  }, 60_000);
});
