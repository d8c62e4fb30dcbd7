/**
 * The retrieval CLI (index build/info, search, eval retrieval) run in-process through buildProgram()
 * on a tiny corpus in a temp dir: exit codes, --json output and clear errors.
 */
import { mkdtemp, writeFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from './program.js';
import { runCli } from '../../tests/support/run-cli.js';
import { gitSha } from '../../eval/provenance.js';

const cli = (...args: string[]) => runCli(args);

const passages = [
  { id: 'p-hearsay', text: 'Hearsay is an out-of-court statement offered to prove the truth of the matter asserted.', title: 'Hearsay' },
  { id: 'p-adverse', text: 'Adverse possession requires open, notorious, continuous and hostile possession for the statutory period.' },
  { id: 'p-contract', text: 'A contract requires offer, acceptance and consideration; a promise without consideration is unenforceable.' },
  { id: 'p-murder', text: 'Murder is the unlawful killing of a human being with malice aforethought.' },
  { id: 'p-empty', text: '' },
];
const questions = [
  {
    id: 'q1',
    prompt: 'Dan testified about what Wes said outside court.',
    question: 'Is the out-of-court statement hearsay?',
    choices: ['yes', 'no'],
    answer: 'A',
    gold_idx: 'p-hearsay',
  },
  {
    id: 'q2',
    prompt: '',
    question: 'Did the hostile, continuous possession for the statutory period give Ann title by adverse possession?',
    choices: ['yes', 'no'],
    answer: 'A',
    gold_idx: 'p-adverse',
  },
  {
    id: 'q3',
    prompt: 'A promised B a gift.',
    question: 'Is the promise enforceable without consideration?',
    choices: ['yes', 'no'],
    answer: 'B',
    gold_idx: 'p-contract',
  },
];

let dir: string;
let corpus: string;
let index: string;
let qa: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-cli-'));
  corpus = join(dir, 'tiny.jsonl');
  qa = join(dir, 'qa.jsonl');
  index = join(dir, 'idx');
  await writeFile(corpus, passages.map((p) => JSON.stringify(p)).join('\n') + '\n');
  await writeFile(qa, questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
  const r = await cli('index', 'build', corpus, '--out', index, '--workers', '0', '--json');
  // The one line on stderr: the empty passage, noted (indexer/corpus-notes.ts).
  expect(r.stderr.trim()).toMatch(/^\[warn\] tiny\.jsonl: 1 of 5 passages has no text \(empty or whitespace only; the passage: "p-empty"\)[^\n]*$/);
  expect(r.code).toBe(0);
});

afterEach(() => {
  process.exitCode = 0;
});

describe('lexcase index', () => {
  it('build writes a readable index; info reports corpus name, passage count and methods', async () => {
    expect(existsSync(join(index, 'manifest.json'))).toBe(true);
    const r = await cli('--json', 'index', 'info', index);
    expect(r.code).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info.manifest.corpus).toMatchObject({ name: 'tiny.jsonl', passages: 5 });
    expect(info.manifest.methods).toEqual(['bm25', 'qld']);
    expect(info.bytes).toBeGreaterThan(0);
    const human = await cli('index', 'info', index);
    expect(human.stdout).toMatch(/corpus\s+tiny\.jsonl: 5 passages/);
  });

  it('info sizes a small index in KiB, not "0.0 MiB"', async () => {
    const bytes = JSON.parse((await cli('--json', 'index', 'info', index)).stdout).bytes as number;
    expect(bytes).toBeLessThan(0.1 * 1048576);
    const human = (await cli('index', 'info', index)).stdout;
    expect(human).toContain(`size      ${(bytes / 1024).toFixed(1)} KiB (`);
    expect(human).toMatch(/integrity ok: manifest seal and sha256 of \d+ files \(\d+\.\d KiB\)/);
    expect(human).not.toContain('0.0 MiB');
  });

  it('build from CSV with custom fields and an analyzer spec records the analyzer', async () => {
    const csv = join(dir, 'pool.csv');
    await writeFile(csv, 'pid,body\n1,"Running runners ran, quickly"\n2,The rule against perpetuities\n');
    const out = join(dir, 'idx-csv');
    const r = await cli(
      '--json',
      'index',
      'build',
      csv,
      '--out',
      out,
      '--id-field',
      'pid',
      '--text-field',
      'body',
      '--analyzer',
      'stemmer=none,stopwords=none',
      '--methods',
      'bm25',
      '--workers',
      '0',
    );
    expect(r.code).toBe(0);
    const m = JSON.parse(r.stdout).manifest;
    expect(m.analyzer).toMatchObject({ stemmer: 'none', stopwords: 'none' });
    expect(m.methods).toEqual(['bm25']);
    const s = await cli('--json', 'search', 'the', '--index', out, '--method', 'bm25');
    expect(JSON.parse(s.stdout).hits.map((h: { id: string }) => h.id)).toEqual(['2']);
  });

  it('refuses corpus flags it would ignore: field flags on a bundled corpus, --delimiter on JSONL, a delimiter of two characters', async () => {
    const bundled = await cli('index', 'build', 'barexam', '--out', join(dir, 'idx-bundled'), '--text-field', 'body', '--keep-fields', 'court');
    expect(bundled.code).toBe(1);
    expect(bundled.stderr).toContain('--text-field, --keep-fields apply to a passage file, not to the bundled corpus "barexam" (its fields are fixed)');
    expect(existsSync(join(dir, 'idx-bundled'))).toBe(false);
    const idField = await cli('index', 'build', 'barexam', '--out', join(dir, 'idx-bundled'), '--id-field', 'pid');
    expect(idField.stderr).toContain('--id-field applies to a passage file, not to the bundled corpus "barexam"');
    const jsonl = await cli('index', 'build', corpus, '--out', join(dir, 'idx-delim'), '--delimiter', ';');
    expect(jsonl.code).toBe(1);
    expect(jsonl.stderr).toContain(`--delimiter applies to CSV and TSV files; ${corpus} is JSONL`);
    expect(existsSync(join(dir, 'idx-delim'))).toBe(false);
    const semi = join(dir, 'semi.csv');
    await writeFile(semi, 'id;text\nx;The court held the contract void\ny;A tenant may withhold rent\n');
    const two = await cli('index', 'build', semi, '--out', join(dir, 'idx-semi'), '--delimiter', ';;', '--workers', '0');
    expect(two.code).toBe(1);
    expect(two.stderr).toContain('invalid --delimiter: ";;"; expected one character');
    expect(two.stderr).not.toContain('missing passage id');
    const one = await cli('--json', 'index', 'build', semi, '--out', join(dir, 'idx-semi'), '--delimiter', ';', '--methods', 'bm25', '--workers', '0');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout).manifest.corpus.passages).toBe(2);
  });

  it('rejects a bad --analyzer key naming the accepted keys', async () => {
    const r = await cli('index', 'build', corpus, '--out', join(dir, 'x'), '--analyzer', 'stemer=porter');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /invalid --analyzer: "stemer=porter"; expected a preset \(lucene\) or key=value pairs with keys preset, lowercase, stopwords, stemmer, minTokenLength/,
    );
  });

  it('unknown corpus name → exit 1 with the bundled names', async () => {
    const r = await cli('index', 'build', 'no-such-corpus', '--out', join(dir, 'nope'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('corpus not found: no-such-corpus');
    expect(r.stderr).toContain('bundled corpora: default, barexam, legal_corpus');
    expect(existsSync(join(dir, 'nope', 'manifest.json'))).toBe(false);
  });

  it('malformed corpus line → exit 1 naming file:line', async () => {
    const bad = join(dir, 'bad.jsonl');
    await writeFile(bad, '{"id":"a","text":"fine"}\n{"id":"b","text": oops}\n');
    const r = await cli('index', 'build', bad, '--out', join(dir, 'bad-idx'), '--workers', '0');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}:2: malformed JSON`);
    expect(existsSync(join(dir, 'bad-idx', 'manifest.json'))).toBe(false);
  });
});

describe('lexcase search', () => {
  it('ranks the matching passage first and prints a snippet from the doc store', async () => {
    const r = await cli('--json', 'search', 'hearsay statement truth of the matter', '--index', index, '--method', 'bm25', '-k', '3');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.method).toBe('bm25');
    expect(out.hits[0]).toMatchObject({ rank: 1, id: 'p-hearsay', title: 'Hearsay' });
    expect(out.hits[0].snippet).toMatch(/^Hearsay is an out-of-court statement/);
    const human = await cli('search', 'malice killing', '--index', index, '--method', 'qld', '-k', '1');
    expect(human.stdout).toMatch(/1 hits · qld/);
    expect(human.stdout).toMatch(/p-murder/);
  });

  it('a scorer flag the chosen method does not read is warned about on stderr, not ignored silently; one it reads is not', async () => {
    const qld = await cli('--json', 'search', 'fee simple', '--index', index, '--method', 'qld', '--k1', '3');
    expect(qld.code).toBe(0);
    expect(qld.stderr).toContain('[warn] --k1 is ignored: it applies to bm25, wink, not to qld');
    const bm25 = await cli('--json', 'search', 'fee simple', '--index', index, '--method', 'bm25', '--mu', '50', '--k1', '3');
    expect(bm25.stderr).toContain('[warn] --mu is ignored: it applies to qld, not to bm25');
    expect(bm25.stderr).not.toMatch(/--k1/);
    const evalAll = (...flags: string[]) =>
      cli('--json', 'eval', 'retrieval', '--index', index, '--dataset-file', qa, '--split', 'all', '--iterations', '100', ...flags);
    const ev = await evalAll('--method', 'bm25', '--mu', '50');
    expect(ev.code).toBe(0);
    expect(ev.stderr).toContain('[warn] --mu is ignored: it applies to qld, not to bm25');
    // --k1 reads for bm25 among the methods evaluated: no warning
    const both = await evalAll('--method', 'bm25,qld', '--k1', '1.5');
    expect(both.stderr).not.toMatch(/ignored/);
  });

  it('--explain gives per-term contributions that sum to the hit score', async () => {
    const r = await cli('--json', 'search', 'adverse possession hostile', '--index', index, '--method', 'bm25', '-k', '1', '--explain');
    const hit = JSON.parse(r.stdout).hits[0];
    expect(hit.id).toBe('p-adverse');
    const terms = hit.explanation.terms as Array<{ term: string; score: number; tf: number }>;
    expect(terms.map((t) => t.term).sort()).toEqual(['advers', 'hostil', 'possess']);
    expect(terms.reduce((s, t) => s + t.score, 0) + (hit.explanation.base ?? 0)).toBeCloseTo(hit.score, 6);
  });

  it('--approx-postings: opt-in, labelled approximate in the JSON and the header; share 1 gives the exact hits; only bm25/qld, not with --explain', async () => {
    const q = 'hostile possession for the statutory period consideration';
    const exact = JSON.parse((await cli('--json', 'search', q, '--index', index, '--method', 'qld', '-k', '5')).stdout);
    expect(exact.approximate).toBeUndefined();
    const full = JSON.parse((await cli('--json', 'search', q, '--index', index, '--method', 'qld', '-k', '5', '--approx-postings', '1')).stdout);
    expect(full.approximate).toEqual({ postingShare: 1 });
    expect(full.hits).toEqual(exact.hits);
    const a = await cli('--json', 'search', q, '--index', index, '--method', 'bm25', '-k', '5', '--approx-postings', '0.3', '--approx-max-postings', '100');
    expect(a.code).toBe(0);
    const out = JSON.parse(a.stdout);
    expect(out.approximate).toEqual({ postingShare: 0.3, maxPostings: 100 });
    expect(out.hits.length).toBeGreaterThan(0);
    const human = await cli('search', q, '--index', index, '--method', 'bm25', '-k', '2', '--approx-postings', '0.3');
    expect(human.stdout).toMatch(/hits · bm25 · APPROXIMATE \(posting budget: 30 % of the query's postings; not exact scores\)/);
    const wink = await cli('search', q, '--index', index, '--method', 'wink', '--approx-postings', '0.5');
    expect(wink.code).toBe(1);
    expect(wink.stderr).toContain('--approx-postings / --approx-max-postings work with --method bm25 or qld, not "wink"');
    const explain = await cli('search', q, '--index', index, '--approx-postings', '0.5', '--explain');
    expect(explain.code).toBe(1);
    expect(explain.stderr).toContain('--explain gives exact per-term scores');
  });

  it('missing index → exit 1 with "no lexcase index" and a build hint', async () => {
    const r = await cli('search', 'x', '--index', join(dir, 'missing'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`no lexcase index at ${join(dir, 'missing')}`);
    expect(r.stderr).toContain('lexcase index build');
  });

  it('a method the index lacks → exit 1 naming the available methods', async () => {
    const r = await cli('search', 'x', '--index', join(dir, 'idx-csv'), '--method', 'qld');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/method "qld" is not available/);
    expect(r.stderr).toMatch(/available: bm25/);
  });
});

describe('lexcase eval retrieval', () => {
  it('--help lists only the datasets with gold passages under --dataset, and names mmlu_pro_law as having none', async () => {
    const r = await cli('eval', 'retrieval', '--help');
    const help = r.out.replace(/\s+/g, ' ');
    // before: "question dataset with gold passages (barexam, mmlu_pro_law)", though mmlu_pro_law is refused
    expect(help).toContain('--dataset <name> question dataset with gold passages: barexam (mmlu_pro_law: none, refused)');
  });
  it('--sweep-fusion scores the fusion grid over the named components and marks the chosen setting', async () => {
    const r = await cli('eval', 'retrieval', '--index', index, '--dataset-file', qa, '--split', 'all', '--method', 'bm25,qld', '--k', '1,3', '--sweep-fusion');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('| setting | Recall@1 | Recall@3 | margin vs best single |');
    expect(r.stdout).toMatch(/\| bm25 \| \d\.\d{3} \| \d\.\d{3} \|/);
    expect(r.stdout).toMatch(/\| \*\*(rrf|weighted)\(bm25\+qld\)[^|]*\*\* \|/);
    const j = await cli(
      '--json',
      'eval',
      'retrieval',
      '--index',
      index,
      '--dataset-file',
      qa,
      '--split',
      'all',
      '--method',
      'bm25,qld',
      '--k',
      '1,3',
      '--sweep-fusion',
    );
    const out = JSON.parse(j.stdout);
    expect(out.n).toBe(3);
    expect(out.singles.map((x: { label: string }) => x.label)).toEqual(['bm25', 'qld']);
    expect(out.best.setting.methods).toEqual(['bm25', 'qld']);
  });

  it('evaluates a dataset file against the index and reports corpus size, split and metrics with CIs', async () => {
    const run = join(dir, 'runs', 'run.txt');
    const r = await cli(
      '--json',
      'eval',
      'retrieval',
      '--index',
      index,
      '--dataset-file',
      qa,
      '--split',
      'all',
      '--method',
      'bm25,qld',
      '--k',
      '1,3',
      '--iterations',
      '200',
      '--run-file',
      run,
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep.corpus).toMatchObject({ name: 'tiny.jsonl', passages: 5 });
    expect(rep.dataset).toMatchObject({ name: 'barexam', split: 'all', n: 3 });
    expect(rep.results.map((x: { method: string }) => x.method)).toEqual(['bm25', 'qld']);
    const bm25 = rep.results[0];
    expect(bm25.metrics['recall@1'].estimate).toBe(1);
    expect(bm25.metrics['mrr@10'].estimate).toBe(1);
    expect(bm25.perQuery.map((q: { firstRank: number }) => q.firstRank)).toEqual([1, 1, 1]);
    const lines = (await readFile(join(dir, 'runs', 'run.bm25.txt'), 'utf8')).trim().split('\n');
    expect(lines[0]).toMatch(/^q1 Q0 p-hearsay 1 [\d.]+ lexcase-bm25$/);
    expect(existsSync(join(dir, 'runs', 'run.qld.txt'))).toBe(true);
  });

  it('--plot writes the Recall@k curves of each method as an SVG', async () => {
    const svgFile = join(dir, 'plots', 'recall.svg');
    const r = await cli(
      'eval',
      'retrieval',
      '--index',
      index,
      '--dataset-file',
      qa,
      '--split',
      'all',
      '--method',
      'bm25,qld',
      '--k',
      '1,3',
      '--iterations',
      '100',
      '--plot',
      svgFile,
    );
    expect(r.code).toBe(0);
    const svg = await readFile(svgFile, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    for (const t of ['>bm25<', '>qld<', 'Recall@k — barexam all (n = 3)']) expect(svg).toContain(t);
  });

  it('prints a Markdown table that states the corpus and its size', async () => {
    const r = await cli('eval', 'retrieval', '--index', index, '--dataset-file', qa, '--split', 'all', '--k', '1', '--iterations', '100');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Corpus: **tiny.jsonl** (5 passages)');
    expect(r.stdout).toMatch(/\| method +\| +Recall@1 \| +MRR@10 \| +nDCG@10 \| p50 ms \|/);
    // every gold first: Recall@1 and MRR@10 are the same 0/1 values, so the same Wilson interval at n = 3
    // (MRR printed "1.000 (n < 10)", a bootstrap's refusal, beside Recall@1's interval)
    expect(r.stdout).toMatch(/\| bm25 +\| 1\.000 \[0\.439, 1\.000\] +\| 1\.000 \[0\.439, 1\.000\] +\| 1\.000 \[0\.439, 1\.000\]/);
    // aligned: every row of the table is as wide as the header, with the pipes in the same columns
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('|'));
    const pipes = (l: string) => [...l].flatMap((c, i) => (c === '|' ? [i] : []));
    for (const l of rows) expect(pipes(l)).toEqual(pipes(rows[0]));
    // the user's own questions: named by file, without the Bar Exam QA paper-pool note
    expect(r.stdout).toContain(`questions from **${qa}** (barexam format)`);
    expect(r.stdout).not.toMatch(/856,835|dataset \*\*barexam/);
  });

  it('records and prints the scoring parameters and lexcase’s commit: a table at k1 1.5, b 0.3, μ 500 does not read as one at the defaults', async () => {
    const args = ['eval', 'retrieval', '--index', index, '--dataset-file', qa, '--split', 'all', '--k', '1', '--iterations', '100', '--method', 'bm25,qld'];
    const r = await cli(...args, '--k1', '1.5', '--b', '0.3', '--mu', '500');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Scoring: bm25 k1 1.5, b 0.3 · qld μ 500 (textbook).');
    const j = JSON.parse((await cli('--json', ...args, '--k1', '1.5', '--b', '0.3', '--mu', '500')).stdout);
    expect(j.results.map((x: { method: string; config?: unknown }) => [x.method, x.config])).toEqual([
      ['bm25', { k1: 1.5, b: 0.3 }],
      ['qld', { mu: 500, variant: 'textbook' }],
    ]);
    expect(j.gitSha).toBe(gitSha());
    // the defaults are printed too
    expect((await cli(...args)).stdout).toContain('Scoring: bm25 k1 0.9, b 0.4 · qld μ 2000 (textbook).');
  });

  it('refuses an index without any gold passage (barexam questions on another corpus) and warns when some are missing', async () => {
    const r = await cli('eval', 'retrieval', '--index', index, '--split', 'val', '--k', '10', '--iterations', '100');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /none of the 124 questions of dataset "barexam" split "val" has its gold passage in index .* \(corpus tiny\.jsonl, e\.g\. mbe_\d+/,
    );
    expect(r.stderr).toMatch(/every metric would be 0\n  hint: index a corpus that contains the gold passages/);
    const partial = join(dir, 'qa-partial.jsonl');
    await writeFile(partial, [...questions, { ...questions[0], id: 'q4', gold_idx: 'p-not-indexed' }].map((q) => JSON.stringify(q)).join('\n') + '\n');
    const some = await cli('eval', 'retrieval', '--index', index, '--dataset-file', partial, '--split', 'all', '--k', '1', '--iterations', '100');
    expect(some.code).toBe(0);
    expect(some.stdout).toContain('**Warning:** 1 of 4 questions have no gold passage in this index (e.g. q4)');
    const ok = await cli('--json', 'eval', 'retrieval', '--index', index, '--dataset-file', qa, '--split', 'all', '--k', '1', '--iterations', '100');
    expect(JSON.parse(ok.stdout).goldMissing).toEqual({ questions: 0, examples: [] });
  });

  it("the header's n is the n of the figures: questions without a gold passage id are left out and said so", async () => {
    const file = join(dir, 'qa-no-gold.jsonl');
    const rows = [...questions, { ...questions[0], id: 'q4', gold_idx: '' }, { ...questions[1], id: 'q5', gold_idx: '' }];
    await writeFile(file, rows.map((q) => JSON.stringify(q)).join('\n') + '\n');
    const r = await cli('eval', 'retrieval', '--index', index, '--dataset-file', file, '--split', 'all', '--k', '1', '--iterations', '100', '--json');
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect([j.dataset.n, j.results[0].n, j.results[0].skipped]).toEqual([5, 3, 2]);
    const md = await cli('eval', 'retrieval', '--index', index, '--dataset-file', file, '--split', 'all', '--k', '1', '--iterations', '100');
    // before: "(n = 5, split seed …)" over figures of 3 questions, the 2 left out said nowhere in the text
    expect(md.stdout).toContain("(n = 3: 2 of the split's 5 questions have no gold passage id and are left out, split seed");
  });

  it('unknown dataset and bad split are clear errors', async () => {
    const a = await cli('eval', 'retrieval', '--index', index, '--dataset', 'hotpot');
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/unknown dataset "hotpot"[\s\S]*known datasets: barexam, mmlu_pro_law/);
    const b = await cli('eval', 'retrieval', '--index', index, '--split', 'dev2');
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/invalid split: "dev2"/);
  });

  it('--help of every retrieval command documents its options', async () => {
    for (const [args, needle] of [
      [['index', 'build', '--help'], '--id-field'],
      [['index', 'info', '--help'], 'index directory'],
      [['search', '--help'], '--explain'],
      [['eval', 'retrieval', '--help'], 'original membership is not available'],
      [['demo', '--help'], '--dir'],
    ] as const) {
      const r = await cli(...args);
      expect(r.code).toBe(0);
      // commander wraps help to the width of the longest option: compare words, not line breaks
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(needle);
    }
  });
});
