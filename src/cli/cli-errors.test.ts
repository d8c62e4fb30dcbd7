/**
 * The error paths a new user meets first (issue 12 §3), run in-process through buildProgram():
 * every mistake is one message naming the option / file / field, exit 1, no stack trace, and
 * nothing written. The numeric-option table walks the real commander program, so an option added
 * later is covered without touching this file.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command, Option } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tests/support/run-cli.js';
import { buildProgram } from './program.js';
import { describeRange, numericSpec, type NumericSpec } from './numeric-options.js';

const cli = (...args: string[]) => runCli(args);
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tinyModel = join(repoRoot, 'tests/fixtures/tiny-embedder/tiny-bert');
/** A Node stack frame ("    at fn (file:1:2)"): must never reach a user without --debug. */
const STACK = /^\s+at .+[:(]/m;

/** Every (sub)command with its path from the root, e.g. ['eval', 'retrieval']. */
function commands(cmd: Command, path: string[] = []): Array<{ path: string[]; cmd: Command }> {
  const here = path.length ? [{ path, cmd }] : [];
  return [...here, ...cmd.commands.flatMap((c) => commands(c, [...path, c.name()]))];
}

interface NumericCase {
  command: string[];
  flag: string;
  spec: NumericSpec;
}
const numericOptions: NumericCase[] = [];
const unparsedNumeric: string[] = [];
for (const { path, cmd } of commands(buildProgram())) {
  for (const o of cmd.options as Option[]) {
    const spec = numericSpec(o.parseArg);
    if (spec) numericOptions.push({ command: path, flag: o.long ?? o.short!, spec });
    // an option whose value reads as a number (<n>, <x>, <chars>, <k>) must use the numeric parser
    else if (/<(n|x|chars|k)>/.test(o.flags)) unparsedNumeric.push(`${path.join(' ')} ${o.flags}`);
  }
}

/** Values just outside the range (when it has bounds) plus ones that are not numbers at all. */
function badValues(s: NumericSpec): string[] {
  const v = ['abc', '', '1.5x', '0x1']; // hex: `--rrf-k 0x3c` ran at 60
  if (s.integer) v.push('2.5');
  if (s.gt !== undefined) v.push(String(s.gt));
  else if (s.min !== undefined) v.push(String(s.min - 1));
  if (s.max !== undefined) v.push(String(s.max + 1));
  return v;
}
const goodValue = (s: NumericSpec): string =>
  String(s.max !== undefined && s.min === undefined && s.gt === undefined ? s.max : s.gt !== undefined ? s.gt + 1 : (s.min ?? 0));

describe('numeric options: one validated parser for every command', () => {
  it('covers the options of every command, and none that looks numeric is parsed as a string', () => {
    expect(unparsedNumeric).toEqual([]);
    expect(numericOptions.length).toBeGreaterThanOrEqual(45);
    const has = (cmd: string, flag: string) => numericOptions.some((c) => c.command.join(' ') === cmd && c.flag === flag);
    expect(has('search', '--k') && has('serve', '--port') && has('run case', '--limit') && has('compare', '--iterations')).toBe(true);
  });

  it.each(numericOptions.map((c) => [`${c.command.join(' ')} ${c.flag}`, c] as const))(
    '%s: bad values exit 1 with one message naming the option',
    async (_name, c) => {
      for (const bad of badValues(c.spec)) {
        const r = await cli(...c.command, `${c.flag}=${bad}`);
        expect(r.code, `${c.flag}=${bad}`).toBe(1);
        expect(r.stderr).toContain(`error: option '`);
        expect(r.stderr).toContain(c.flag);
        expect(r.stderr).toContain(`expected ${describeRange(c.spec)}`);
        expect(r.stderr).not.toMatch(STACK);
        expect(r.stdout).toBe('');
      }
    },
  );

  it('accepts values in range and returns numbers', () => {
    for (const c of numericOptions) {
      const { path, cmd } = commands(buildProgram()).find((x) => x.path.join(' ') === c.command.join(' '))!;
      const opt = (cmd.options as Option[]).find((o) => (o.long ?? o.short) === c.flag)!;
      expect(opt.parseArg!(goodValue(c.spec), undefined), `${path.join(' ')} ${c.flag}`).toBeTypeOf('number');
    }
  });

  it('--iterations: every command that runs a bootstrap refuses fewer than 100 resamples (compare --iterations 1 printed a collapsed "95% interval")', async () => {
    const iterations = numericOptions.filter((c) => c.flag === '--iterations');
    expect(iterations.map((c) => c.command.join(' ')).sort()).toEqual(['compare', 'demo', 'eval retrieval', 'eval run', 'report', 'run acal']);
    for (const c of iterations) {
      const r = await cli(...c.command, '--iterations', '99');
      expect(r.code, c.command.join(' ')).toBe(1);
      expect(r.stderr).toContain(`option '--iterations <n>' argument '99' is invalid. expected an integer from 100 to 100000.`);
    }
    const one = await cli('compare', 'runA', 'runB', '--iterations', '1');
    expect(one.stderr).toMatch(/--iterations <n>' argument '1' is invalid\. expected an integer from 100 to 100000/);
  });

  it('the ranges users hit first: -k ≥ 1, --port 0..65535, --rounds 1..3', async () => {
    const k = await cli('search', 'q', '--index', 'nowhere', '-k', '0');
    expect(k.code).toBe(1);
    expect(k.stderr).toMatch(/option '-k, --k <n>' argument '0' is invalid\. expected an integer ≥ 1/);
    const port = await cli('serve', '--port', '70000');
    expect(port.stderr).toMatch(/expected an integer from 0 to 65535/);
    const rounds = await cli('run', 'mad', '--rounds', '4');
    expect(rounds.stderr).toMatch(/--rounds <n>' argument '4' is invalid\. expected an integer from 1 to 3/);
  });
});

describe('a value parser that fails, and repeatable options', () => {
  it('a parser throwing a lexcase error gives one line naming the option, not a stack trace (search --ties X)', async () => {
    const r = await cli('search', 'q', '--index', 'nowhere', '--ties', 'X');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: option '--ties <mode>' argument 'X' is invalid\. expected one of none, anserini, got "X"$/m);
    expect(r.stderr).not.toMatch(STACK);
  });

  it('an option that collects its values still repeats (serve --index A --index B)', async () => {
    const r = await cli('serve', '--index', 'a=idx1', '--index', 'b=idx2', '--help');
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/given twice/);
  });

  it('run mad --seeds reads decimal integers only (0x10 ran as seed 16)', async () => {
    const r = await cli('run', 'mad', '--seeds', '1,0x10');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/invalid --seeds: "0x10" is not an integer/);
  });
});

describe('--offline is advertised only where it works', () => {
  it.each([
    ['run', 'baseline'],
    ['run', 'acal'],
    ['run', 'mad'],
    ['run', 'threeply'],
    ['run', 'emar'],
  ])('%s %s --help does not list --offline', async (...path) => {
    const r = await cli(...path, '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--config <file>/);
    expect(r.stdout).not.toMatch(/--offline/);
  });

  it('run case, evidence and serve list it', async () => {
    for (const path of [['run', 'case'], ['evidence'], ['serve']]) expect((await cli(...path, '--help')).stdout).toMatch(/--offline/);
  });

  it('a command without an offline path still refuses --offline with why, not "unknown option"', async () => {
    const r = await cli('run', 'threeply', '--offline');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/needs an LLM; it has no offline path/);
  });
});

/** sha256 over every file's path and bytes under dir. */
async function hashDir(dir: string): Promise<string> {
  const h = createHash('sha256');
  const walk = async (d: string): Promise<void> => {
    for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else
        h.update(`${relative(dir, p)}\0`)
          .update(await readFile(p))
          .update('\0');
    }
  };
  await walk(dir);
  return h.digest('hex');
}

const passages = [
  { id: 'p-hearsay', text: 'Hearsay is an out-of-court statement offered to prove the truth of the matter asserted.', title: 'Hearsay' },
  { id: 'p-adverse', text: 'Adverse possession requires open, notorious, continuous and hostile possession for the statutory period.' },
  { id: 'p-contract', text: 'A contract requires offer, acceptance and consideration; a promise without consideration is unenforceable.' },
  { id: 'p-murder', text: 'Murder is the unlawful killing of a human being with malice aforethought.' },
  { id: 'p-deed', text: 'A deed must be delivered and accepted to convey title; recording protects a bona fide purchaser.' },
];

describe('search and eval on a real index', () => {
  let tmp: string;
  let sparse: string;
  let full: string;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'lexcase-cli-errors-'));
    const corpus = join(tmp, 'tiny.jsonl');
    await writeFile(corpus, passages.map((p) => JSON.stringify(p)).join('\n') + '\n');
    sparse = join(tmp, 'sparse');
    full = join(tmp, 'full');
    expect((await cli('index', 'build', corpus, '--out', sparse, '--workers', '0')).code).toBe(0);
    const b = await cli(
      'index',
      'build',
      corpus,
      '--out',
      full,
      '--workers',
      '0',
      '--methods',
      'bm25,qld,lancedb-fts',
      '--embedder',
      'transformers',
      '--model-dir',
      tinyModel,
    );
    expect(b.stderr).not.toMatch(/error/);
    expect(b.code).toBe(0);
  }, 120_000);
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('a search of every method leaves the index dir byte-for-byte unchanged', async () => {
    const manifest = JSON.parse(await readFile(join(full, 'manifest.json'), 'utf8')) as { methods: string[] };
    expect(manifest.methods).toEqual(expect.arrayContaining(['bm25', 'qld', 'dense', 'lancedb-fts']));
    for (const dir of [full, sparse]) {
      const before = await hashDir(dir);
      for (const method of ['bm25', 'qld', 'wink', 'dense', 'hybrid', 'lancedb-fts']) {
        const r = await cli('search', 'hearsay statement truth', '--index', dir, '--method', method, '-k', '3');
        if (dir === full) {
          expect(r.code, `${method}: ${r.stderr}`).toBe(0);
          expect(r.stdout).toMatch(/p-hearsay/);
        }
      }
      expect(await hashDir(dir), dir).toBe(before);
    }
  }, 120_000);

  it('--json prints machine-readable JSON only: stdout parses, nothing but JSON on it', async () => {
    const r = await cli('--json', 'search', 'adverse possession', '--index', full, '--method', 'hybrid', '-k', '2');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { method: string; hits: Array<{ id: string; rank: number }> };
    expect(j.method).toBe('hybrid');
    expect(j.hits.map((h) => h.rank)).toEqual([1, 2]);
    expect(j.hits[0].id).toBe('p-adverse');
  });

  it('lancedb-fts on an index without it says how to add it and writes nothing', async () => {
    const r = await cli('search', 'hearsay', '--index', sparse, '--method', 'lancedb-fts');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/method "lancedb-fts" is not available/);
    expect(r.stderr).toContain(`lexcase index lancedb-fts ${sparse}`);
    expect(existsSync(join(sparse, 'lancedb-fts'))).toBe(false);
  });

  it('`index lancedb-fts DIR` adds it to an existing index, after which it searches', async () => {
    const copy = join(tmp, 'add-fts');
    expect((await cli('index', 'build', join(tmp, 'tiny.jsonl'), '--out', copy, '--workers', '0')).code).toBe(0);
    const add = await cli('--json', 'index', 'lancedb-fts', copy);
    expect(add.code).toBe(0);
    expect(JSON.parse(add.stdout).methods).toEqual(['bm25', 'qld', 'lancedb-fts']);
    const r = await cli('search', 'adverse possession hostile', '--index', copy, '--method', 'lancedb-fts');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/p-adverse/);
  }, 60_000);

  it('an option given twice stops naming both values, where the last silently won (search -k 2 -k 3 printed 3 hits)', async () => {
    const k = await cli('search', 'hearsay', '--index', sparse, '-k', '2', '-k', '3');
    expect(k.code).toBe(1);
    expect(k.stderr).toMatch(/^error: option '-k, --k <n>' given twice \(2, then 3\): give it once$/m);
    expect(k.stdout).toBe('');
    // eval retrieval --method bm25 --method qld evaluated qld alone; --k 5 --k 50 reported Recall@50 alone
    const method = await cli('eval', 'retrieval', '--index', sparse, '--method', 'bm25', '--method', 'qld');
    expect(method.code).toBe(1);
    expect(method.stderr).toContain(`option '--method <list>' given twice (bm25, then qld)`);
    const ks = await cli('eval', 'retrieval', '--index', sparse, '--k=5', '--k', '50');
    expect(ks.stderr).toContain(`option '--k <list>' given twice (5, then 50)`);
    // once is fine, in either spelling
    expect((await cli('search', 'requires consideration', '--index', sparse, '--k=2')).stdout).toMatch(/^2 hits/);
  });

  it('a single-query search refuses the batch-only flags, where it printed hits and wrote no --run-file (exit 0)', async () => {
    const runFile = join(tmp, 'never-run.txt');
    const r = await cli('search', 'hearsay', '--index', sparse, '--run-file', runFile, '--threads', '2');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--run-file, --threads work with --topics FILE \(batch mode\), not with a single query/);
    expect(r.stdout).toBe('');
    expect(existsSync(runFile)).toBe(false);
    const agg = await cli('search', 'hearsay', '--index', sparse, '--aggregate', 'maxp');
    expect(agg.code).toBe(1);
    expect(agg.stderr).toMatch(/--aggregate works with --topics FILE/);
  });

  it('eval retrieval --k reads decimal cutoffs only and names a bad one as typed (0x10 ran as Recall@16; 10abc said "NaN")', async () => {
    for (const bad of ['0x10', '10abc', '1e1'])
      expect((await cli('eval', 'retrieval', '--index', sparse, '--k', `5,${bad}`)).stderr, bad).toContain(`k must be a positive integer, got "${bad}"`);
  });

  it('a method listed twice is refused naming it (eval retrieval --method bm25,bm25 printed the same row twice; index build --methods bm25,bm25 recorded it twice)', async () => {
    const qa = join(tmp, 'qa-twice.jsonl');
    const ask = (id: string, question: string) => ({ id, prompt: '', question, choices: ['yes', 'no'], answer: 'A', gold_idx: id.slice(2) });
    await writeFile(
      qa,
      [ask('q-p-hearsay', 'Is an out-of-court statement hearsay?'), ask('q-p-deed', 'Must a deed be delivered?')].map((q) => JSON.stringify(q)).join('\n') +
        '\n',
    );
    const r = await cli(
      'eval',
      'retrieval',
      '--index',
      sparse,
      '--dataset-file',
      qa,
      '--split',
      'all',
      '--k',
      '1',
      '--iterations',
      '100',
      '--method',
      'bm25,qld,bm25',
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`option '--method <list>' argument 'bm25,qld,bm25' is invalid. method "bm25" is listed twice: list each method once.`);
    const out = join(tmp, 'twice');
    const b = await cli('index', 'build', join(tmp, 'tiny.jsonl'), '--out', out, '--methods', 'bm25, bm25', '--workers', '0');
    expect(b.code).toBe(1);
    expect(b.stderr).toContain(`method "bm25" is listed twice`);
    expect(existsSync(out)).toBe(false);
  });

  it('a mistyped method gets "did you mean"', async () => {
    const r = await cli('search', 'hearsay', '--index', sparse, '--method', 'bm52');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/method "bm52" is not a lexcase retrieval method/);
    expect(r.stderr).toMatch(/did you mean "bm25"\?/);
    const far = await cli('search', 'hearsay', '--index', sparse, '--method', 'splade');
    expect(far.stderr).not.toMatch(/did you mean/);
    expect(far.stderr).toMatch(/known methods: bm25, qld, wink, dense, hybrid, lancedb-fts/);
    const dataset = await cli('eval', 'retrieval', '--index', sparse, '--dataset', 'barexm');
    expect(dataset.code).toBe(1);
    expect(dataset.stderr).toMatch(/unknown dataset "barexm"\n  hint: did you mean "barexam"\? known datasets: barexam, mmlu_pro_law/);
    const corpus = await cli('index', 'build', 'legal_corpsu', '--out', join(tmp, 'never'));
    expect(corpus.code).toBe(1);
    expect(corpus.stderr).toMatch(/corpus not found: legal_corpsu\n  hint: did you mean "legal_corpus"\?/);
    expect(existsSync(join(tmp, 'never'))).toBe(false);
  });

  it('index build of a bundled name that is also a folder here is refused saying both exist, and leaves the index at --out as it was', async () => {
    const here = await mkdtemp(join(tmpdir(), 'lexcase-shadow-'));
    await mkdir(join(here, 'barexam'));
    await writeFile(join(here, 'barexam', 'passages.jsonl'), '{"id":"mine1","text":"my own"}\n{"id":"mine2","text":"passages"}\n');
    const cwd = process.cwd();
    process.chdir(here);
    try {
      const own = await cli('--json', 'index', 'build', './barexam', '--out', 'ix-bx', '--workers', '0');
      expect(own.code, own.stderr).toBe(0);
      const manifest = await readFile(join(here, 'ix-bx', 'manifest.json'), 'utf8');
      expect(JSON.parse(manifest).corpus.passages).toBe(2);
      const r = await cli('index', 'build', 'barexam', '--out', 'ix-bx', '--workers', '0');
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(
        /"barexam" is both a bundled corpus and a file or folder here \(\.\/barexam\)\n {2}hint: for the file or folder, pass \.\/barexam/,
      );
      expect(r.stderr).not.toMatch(STACK);
      expect(await readFile(join(here, 'ix-bx', 'manifest.json'), 'utf8')).toBe(manifest);
    } finally {
      process.chdir(cwd);
      await rm(here, { recursive: true, force: true });
    }
  });

  it('hybrid on a sparse-only index points to `lexcase index dense DIR`, not a rebuild', async () => {
    const r = await cli('search', 'hearsay', '--index', sparse, '--method', 'hybrid');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/method "hybrid" needs "dense", which is not available/);
    expect(r.stderr).toContain(`lexcase index dense ${sparse}`);
    expect(r.stderr).not.toMatch(/rebuild/);
    expect(r.stderr).not.toMatch(STACK);
  });

  it('eval retrieval on a dataset without gold passages is an error, not a table of zeros', async () => {
    const out = join(tmp, 'mmlu.json');
    const r = await cli('eval', 'retrieval', '--index', sparse, '--dataset', 'mmlu_pro_law', '--out', out, '--run-file', join(tmp, 'mmlu.run'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/dataset "mmlu_pro_law" has no gold passages/);
    expect(r.stderr).toMatch(/datasets with gold passages: barexam/);
    expect(r.stdout).toBe('');
    expect(existsSync(out) || existsSync(join(tmp, 'mmlu.run'))).toBe(false);
  });

  it('a 2-question --dataset-file with the default --split val names the split sizes and suggests --split all', async () => {
    const qa = join(tmp, 'qa2.jsonl');
    const q = (id: string, gold: string) => ({ id, prompt: '', question: 'Is the statement hearsay?', choices: ['yes', 'no'], answer: 'A', gold_idx: gold });
    await writeFile(qa, [q('q1', 'p-hearsay'), q('q2', 'p-deed')].map((x) => JSON.stringify(x)).join('\n') + '\n');
    const r = await cli('eval', 'retrieval', '--index', sparse, '--dataset-file', qa);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${qa}: split "val" of dataset "barexam" is empty (2 questions: train 2 / val 0 / test 0)`);
    expect(r.stderr).toMatch(/--split all/);
    const all = await cli('--json', 'eval', 'retrieval', '--index', sparse, '--dataset-file', qa, '--split', 'all', '--iterations', '100');
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout).dataset.n).toBe(2);
  });
});
