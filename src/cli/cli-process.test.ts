/**
 * Mistakes and outputs of the retrieval commands as a user meets them: the BUILT `lexcase` in a
 * child process (tests/support/run-built-cli.ts). Each case failed before its fix:
 * - `eval retrieval --plot x.svg` writes the SVG in both modes (with --topics it wrote nothing, exit 0);
 * - `search --topics … --run-file <a directory>` is one clear error, exit 1 (was an unhandled 'error' event and a stack trace);
 * - `--out <a directory>` / under a file: one line naming the flag (was a raw EISDIR / EEXIST);
 * - a mistyped option (`--indx`) is named with the closest known one (was "required option '--index <dir>' not specified");
 * - `search --help` / `eval retrieval --help` describe hybrid by its real defaults (said RRF k = 60 over bm25,dense).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import { HYBRID_DEFAULTS } from '../../retrieval/hybrid-defaults.js';
import { runBuiltCli } from '../../tests/support/run-built-cli.js';

const STACK = /^\s+at .+[:(]/m;
let dir: string;
let index: string;
const run = (...args: string[]) => runBuiltCli(args, { cwd: dir, env: { LEXCASE_PROGRESS: 'off' } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-process-'));
  index = join(dir, 'idx');
  const val = (await loadQuestions('barexam', 'val')).slice(0, 6);
  const gold = new Set(val.flatMap((q) => q.goldPassageIds));
  const lines: string[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) lines.push(JSON.stringify(p));
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 300) lines.push(JSON.stringify(p));
  writeFileSync(join(dir, 'passages.jsonl'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'topics.tsv'), val.map((q) => `${q.id}\t${q.question.replace(/\s+/g, ' ')}`).join('\n') + '\n');
  writeFileSync(join(dir, 'qrels.txt'), val.flatMap((q) => q.goldPassageIds.map((g) => `${q.id} 0 ${g} 1`)).join('\n') + '\n');
  mkdirSync(join(dir, 'adir'));
  writeFileSync(join(dir, 'afile'), 'x');
  const r = await run('index', 'build', 'passages.jsonl', '--out', index);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('eval retrieval --plot', () => {
  it('writes the Recall@k SVG with --topics/--qrels', async () => {
    const r = await run(
      'eval',
      'retrieval',
      '--topics',
      'topics.tsv',
      '--qrels',
      'qrels.txt',
      '--index',
      index,
      '--method',
      'bm25,qld',
      '--plot',
      'plots/t.svg',
    );
    expect(r.code, r.stderr).toBe(0);
    const svg = readFileSync(join(dir, 'plots/t.svg'), 'utf8');
    expect(svg).toMatch(/^<svg/);
    expect(svg).toContain('bm25');
    expect(svg).toContain('qld');
  });

  it('writes the Recall@k SVG on a dataset split', async () => {
    const r = await run('eval', 'retrieval', '--index', index, '--split', 'val', '--method', 'bm25', '--iterations', '100', '--plot', 'd.svg');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'd.svg'), 'utf8')).toMatch(/^<svg/);
  });
});

describe('output paths and typos: one clear line, exit 1, nothing half-done', () => {
  it.each([
    [
      ['search', '--topics', 'topics.tsv', '--index', 'IDX', '--run-file', 'adir'],
      /--run-file adir: is a directory; give a file path\n {2}hint: e\.g\. --run-file adir\/run\.txt/,
    ],
    [['search', '--topics', 'topics.tsv', '--index', 'IDX', '--run-file', 'afile/run.txt'], /--run-file afile\/run\.txt: .*afile is a file, not a folder/],
    [['eval', 'retrieval', '--index', 'IDX', '--out', 'adir'], /--out adir: is a directory; give a file path/],
    [['eval', 'retrieval', '--topics', 'topics.tsv', '--qrels', 'qrels.txt', '--index', 'IDX', '--plot', 'adir'], /--plot adir: is a directory/],
    [['search', 'hearsay', '--indx', 'IDX'], /unknown option '--indx' — did you mean --index\?/],
    [['eval', 'retrieval', '--index', 'IDX', '--spilt', 'val'], /unknown option '--spilt' — did you mean --split\?/],
  ])('%j', async (args, message) => {
    const r = await run(...args.map((a) => (a === 'IDX' ? index : a)));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stderr).not.toMatch(/EISDIR|EEXIST|required option/);
    expect(existsSync(join(dir, 'adir', 'run.txt'))).toBe(false);
  });
});

describe('--help says what hybrid does by default (from HYBRID_DEFAULTS, the values openRetriever uses)', () => {
  it.each(['search', 'eval retrieval'])('%s --help', async (cmd) => {
    const r = await run(...cmd.split(' '), '--help');
    expect(r.code).toBe(0);
    const help = r.stdout.replace(/\s+/g, ' ');
    const d = HYBRID_DEFAULTS;
    expect(help).toContain(`--hybrid-methods <list> hybrid: methods to fuse, any of bm25,qld,dense,lancedb-fts (default ${d.methods.join(',')})`);
    expect(help).toContain(`--rrf-k <n> hybrid: RRF constant (default ${d.rrfK})`);
    expect(help).toContain(
      `(default ${Object.entries(d.weights ?? {})
        .map(([m, w]) => `${m}=${w}`)
        .join(',')} whenever the methods and fusion are the defaults, named or not; else equal)`,
    );
    expect(help).toContain(`hits fetched from each method before fusion (default ${d.depth})`);
    expect(help).not.toMatch(/k = 60|default 60\)|default bm25,dense\)/);
  });
});

describe('--version / -V', () => {
  it("print the package's version and exit 0, as commander did (answered before commander loads)", async () => {
    const version = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')).version;
    for (const flag of ['--version', '-V']) {
      const r = await run(flag);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${version}\n`);
      expect(r.stderr).toBe('');
    }
  });
});
