/**
 * RM3 (`--rm3`), batch search on worker threads (`--threads`) and the TREC SGML / MS MARCO topic
 * readers (`--topics-format`, `--topic-field`) as a user runs them: the installed package's `lexcase`
 * (the packed tarball unpacked into an empty project: tests/support/installed-package.ts) in a child
 * process over an index of the Bar Exam QA gold passages, with the 124 val questions as topics.
 * (tests/installed-package.test.ts ran two of these checks again from the package; they are here.)
 * A run file is byte-identical for 1, 2 and 3 threads; RM3 runs say so in their tag; TREC and
 * MS MARCO topics give the runs their TSV twins give; every mistake is one message, no stack trace.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPackedPackage } from '../support/installed-package.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { ensureBuilt, isolatedEnv, STACK_TRACE } from '../support/spawn-cli.js';
import { writeUserFiles, type UserFiles } from './cli-fixtures.js';

let dir: string;
let idx: string;
let files: UserFiles;
let topics: [string, string][];
let installedCli: string;

/** The installed package's `lexcase <args>` in a child process (the environment spawn-cli.ts's `lexcase` gives). */
const lexcase = (args: string[], o: { cwd?: string } = {}) => runBuiltCli(args, { cli: installedCli, cwd: o.cwd ?? dir, env: isolatedEnv() });

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-rm3-'));
  installedCli = (await installPackedPackage(join(dir, 'pkg'))).cli;
  files = await writeUserFiles(join(dir, 'mine'), { extra: 0 });
  idx = join(dir, 'idx');
  const b = await lexcase(['-q', 'index', 'build', files.passages, '--out', idx]);
  expect(b.code, b.stderr).toBe(0);
  topics = readFileSync(files.topics, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t') as [string, string]);
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noTrace = (r: { stdout: string; stderr: string }) => expect(STACK_TRACE.test(r.stdout + r.stderr), r.stderr).toBe(false);
const QUERY = 'A landowner sued a neighbor who had openly used a path across the land for twenty years. Can the neighbor claim an easement by prescription?';

describe('lexcase search --rm3', () => {
  it('one query: the hits of the expanded query, which it prints (--json: expansion); its parameters change it', async () => {
    const r = await lexcase(['search', QUERY, '--index', idx, '--rm3', '-k', '3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^3 hits · bm25\+rm3 · /);
    expect(r.stdout).toMatch(/^expanded query \(RM3\): (\S+ 0\.\d{4}, ){5,}/m);
    const j = JSON.parse((await lexcase(['--json', 'search', QUERY, '--index', idx, '--rm3', '-k', '10'])).stdout);
    expect(j.method).toBe('bm25+rm3');
    const sum = (j.expansion as { weight: number }[]).reduce((s, t) => s + t.weight, 0);
    expect(Math.abs(sum - 1)).toBeLessThan(1e-5);
    const plain = JSON.parse((await lexcase(['--json', 'search', QUERY, '--index', idx, '-k', '10'])).stdout);
    expect(j.hits.map((h: { id: string }) => h.id)).not.toEqual(plain.hits.map((h: { id: string }) => h.id));
    // Fewer feedback terms, more weight on the query: a shorter expansion.
    const small = JSON.parse(
      (
        await lexcase([
          '--json',
          'search',
          QUERY,
          '--index',
          idx,
          '--method',
          'qld',
          '--rm3',
          '--fb-terms',
          '3',
          '--fb-docs',
          '5',
          '--original-query-weight',
          '0.8',
        ])
      ).stdout,
    );
    expect(small.method).toBe('qld+rm3');
    expect(small.expansion.length).toBeLessThan(j.expansion.length);
    const ex = await lexcase(['search', QUERY, '--index', idx, '--rm3', '-k', '1', '--explain']);
    expect(ex.stdout).toMatch(/^\s+\S+\s+[\d.]+\s+\(tf \d+, df \d+, weight 0\.\d{4}\)$/m);
  });

  it('refuses RM3 parameters without --rm3, RM3 on other methods and bad values, in one message', async () => {
    const a = await lexcase(['search', QUERY, '--index', idx, '--fb-docs', '5']);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/--fb-docs is RM3's: add --rm3/);
    const b = await lexcase(['search', QUERY, '--index', idx, '--method', 'wink', '--rm3']);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/method "wink" takes no RM3 expansion \(bm25 and qld do\)/);
    const c = await lexcase(['search', QUERY, '--index', idx, '--rm3', '--original-query-weight', '2']);
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/--original-query-weight/);
    for (const r of [a, b, c]) noTrace(r);
  });
});

describe('lexcase search --topics --threads', () => {
  it('the run file is byte-identical for 1, 2 and 3 threads (bm25+rm3, qld); --json says how many threads searched', async () => {
    for (const method of [
      ['--method', 'bm25', '--rm3'],
      ['--method', 'qld'],
    ]) {
      const runs: string[] = [];
      for (const n of ['1', '2', '3']) {
        const run = join(dir, `run-${method[1]}-${n}.txt`);
        const r = await lexcase(['--json', 'search', '--topics', files.topics, '--index', idx, ...method, '-k', '200', '--threads', n, '--run-file', run]);
        expect(r.code, r.stderr).toBe(0);
        const s = JSON.parse(r.stdout);
        expect(s).toMatchObject({ topics: 124, threads: Number(n) });
        runs.push(readFileSync(run, 'utf8'));
      }
      expect(runs[0].split('\n')[0]).toMatch(method.includes('--rm3') ? / lexcase-bm25\+rm3$/ : / lexcase-qld$/);
      expect(runs[0].trim().split('\n')).toHaveLength(124 * 200);
      expect(runs[1]).toBe(runs[0]);
      expect(runs[2]).toBe(runs[0]);
    }
  }, 300_000);

  it('eval retrieval --topics: RM3 beside the base methods on worker threads, the numbers eval run gives on its run files', async () => {
    const out = join(dir, 'er');
    const r = await lexcase([
      '--json',
      'eval',
      'retrieval',
      '--topics',
      files.topics,
      '--qrels',
      files.qrels,
      '--index',
      idx,
      '--method',
      'bm25,qld',
      '--rm3',
      '--threads',
      '2',
      '--metrics',
      'recall@10,map',
      '--run-file',
      join(out, 'r.txt'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const rep = JSON.parse(r.stdout);
    expect(rep.results.map((x: { method: string }) => x.method)).toEqual(['bm25+rm3', 'qld+rm3']);
    const again = JSON.parse(
      (await lexcase(['--json', 'eval', 'run', join(out, 'r.bm25+rm3.txt'), '--qrels', files.qrels, '--metrics', 'recall@10,map'])).stdout,
    );
    expect(again.run.means.map.estimate).toBeCloseTo(rep.results[0].means.map.estimate, 10);
  }, 300_000);
});

describe('topics in TREC SGML and MS MARCO form', () => {
  it('TREC SGML (auto-detected in a .txt file; the title by default, --topic-field to choose) and MS MARCO queries give the TSV runs', async () => {
    const some = topics.slice(0, 12);
    // The question's first sentence as the title, all of it as the description.
    const sgml = some
      .map(
        ([id, text], i) =>
          `<top>\n<num> Number: ${i + 1}\n<title> ${text.split('. ')[0]}\n\n<desc> Description:\n${text}\n\n<narr> Narrative:\nPassages stating the rule are relevant. (${id})\n</top>\n`,
      )
      .join('\n');
    writeFileSync(join(dir, 'topics.trec.txt'), sgml);
    writeFileSync(join(dir, 'title.tsv'), some.map(([, t], i) => `${i + 1}\t${t.split('. ')[0]}`).join('\n') + '\n');
    writeFileSync(join(dir, 'queries.dev.tsv'), some.map(([, t], i) => `${i + 1}\t${t}`).join('\n') + '\n');
    const run = async (name: string, ...extra: string[]) => {
      const file = join(dir, `${name}.run`);
      const r = await lexcase(['search', '--topics', ...extra, '--index', idx, '-k', '50', '--run-file', file]);
      expect(r.code, r.stderr).toBe(0);
      return readFileSync(file, 'utf8');
    };
    const title = await run('trec-title', join(dir, 'topics.trec.txt'));
    expect(title).toBe(await run('tsv-title', join(dir, 'title.tsv')));
    const desc = await run('trec-desc', join(dir, 'topics.trec.txt'), '--topic-field', 'description');
    expect(desc).toBe(await run('msmarco', join(dir, 'queries.dev.tsv'), '--topics-format', 'msmarco'));
    expect(desc).not.toBe(title);
  });

  it('errors name the file, the line and the formats', async () => {
    writeFileSync(join(dir, 'broken.txt'), '<top>\n<num> Number: 1\n<title> easement\n');
    const a = await lexcase(['search', '--topics', join(dir, 'broken.txt'), '--index', idx, '--run-file', join(dir, 'x.run')]);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/broken\.txt:1: the topic opened here has no <\/top>/);
    const b = await lexcase(['search', '--topics', files.topics, '--topics-format', 'msmarco', '--index', idx, '--run-file', join(dir, 'x.run')]);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/queries\.tsv:1: MS MARCO qids are integers, got "/);
    const c = await lexcase(['search', '--topics', files.topics, '--topics-format', 'xml', '--index', idx, '--run-file', join(dir, 'x.run')]);
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/--topics-format: expected auto, tsv, jsonl, trec, msmarco, got "xml"/);
    for (const r of [a, b, c]) noTrace(r);
  });
});
