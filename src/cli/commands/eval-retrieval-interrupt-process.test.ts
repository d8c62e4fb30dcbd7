/**
 * Ctrl-C / SIGTERM during `lexcase eval retrieval`, as a user meets it: the built CLI in a child
 * process searching the 1,195 Bar Exam questions (split all) on a bm25 index of the 1,149 Bar Exam
 * passages with `--run-file` and `--out`; the signal is sent once the process holds the run file's
 * temp file open (/proc/PID/fd), so it is mid-way. Before, the command had no handler: Node's
 * default ended it without a word (killed by the signal) and left `bm25.run.tmp-<pid>`, a run of
 * part of the questions, beside the earlier run file. Now it stops the search, removes the temp
 * file, says in one line that no report was written and no partial run file is left, and exits 130
 * (SIGTERM: 143), as `run <system>` and `eval run` do.
 *
 * A signal while it writes its report at the end (--out, --plot): the test holds the command just
 * before those writes (LEXCASE_TEST_HOLD_FINAL_WRITES: it creates the marker file and waits for the
 * signal) and sends the signal then. Before, the atomic writes finished and the command exited 0 as
 * if nothing had come; now the writes still finish whole and it exits 130 / 143, saying so.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages } from '../../../corpora/registry.js';
import { buildIndex } from '../../../indexer/build.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { holdsOpenWhere } from '../../../tests/support/open-files.js';
import { ensureBuilt, isolatedEnv, startLexcase, STACK_TRACE } from '../../../tests/support/spawn-cli.js';

let dir: string;
const index = () => join(dir, 'idx');

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-eval-retrieval-interrupt-'));
  await buildIndex(loadPassages('barexam'), { out: index(), methods: ['bm25'], workers: 0 });
}, 300_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(existsSync('/proc/self/fd'))('Ctrl-C during lexcase eval retrieval', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s while it writes the run file: exit %i, one line saying what was kept; no report, no partial run file, the earlier run file as it was',
    async (signal, code) => {
      const out = join(dir, `out-${signal}`);
      mkdirSync(out);
      const runFile = join(out, 'bm25.run');
      writeFileSync(runFile, 'q1 Q0 mbe_1 1 3.000000 earlier\n');
      const s = startLexcase(
        ['eval', 'retrieval', '--index', index(), '--split', 'all', '--iterations', '100', '--run-file', runFile, '--out', join(out, 'report.json')],
        { cwd: dir },
      );
      const temp = `${runFile}.tmp-${s.child.pid}`;
      while (!holdsOpenWhere(s.child.pid!, (p) => p === temp)) {
        if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error(`eval retrieval ended before it opened ${temp}:\n${s.stderr}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const r = await s.stop(signal);
      // before: code null, signal SIGINT / SIGTERM, stderr empty, bm25.run.tmp-<pid> left
      expect(r.signal).toBeNull();
      expect(r.code).toBe(code);
      expect(r.stderr).toBe(
        `[error] eval retrieval interrupted by ${signal}; no report written (--out, --plot, --qrels-file are written at the end) and no run file of part of the questions left (an earlier file at that path is as it was)\n`,
      );
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(r.stdout).toBe('');
      expect(readdirSync(out)).toEqual(['bm25.run']);
      expect(readFileSync(runFile, 'utf8')).toBe('q1 Q0 mbe_1 1 3.000000 earlier\n');
    },
    120_000,
  );
});

describe('a signal while eval retrieval writes its report at the end', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s during the final --out / --plot writes: they finish whole, then exit %i with one line saying the run file was written',
    async (signal, code) => {
      const out = join(dir, `final-${signal}`);
      mkdirSync(out);
      const runFile = join(out, 'bm25.run');
      const marker = join(dir, `final-${signal}.held`);
      const s = startLexcase(
        [
          'eval',
          'retrieval',
          '--index',
          index(),
          '--split',
          'val',
          '--iterations',
          '100',
          '--run-file',
          runFile,
          '--out',
          join(out, 'report.json'),
          '--plot',
          join(out, 'recall.svg'),
        ],
        { cwd: dir, env: isolatedEnv({ LEXCASE_TEST_HOLD_FINAL_WRITES: marker }) },
      );
      while (!existsSync(marker)) {
        if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error(`eval retrieval ended before its final writes:\n${s.stderr}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const r = await s.stop(signal);
      // before: code 0, the report printed on stdout, nothing on stderr
      expect(r.signal).toBeNull();
      expect(r.code).toBe(code);
      expect(r.stderr).toBe(
        `[error] eval retrieval interrupted by ${signal}; the run file was written and --out, --plot were written whole (the signal came during the final writes; the summary was not printed)\n`,
      );
      expect(r.stdout).toBe('');
      expect(readdirSync(out).sort()).toEqual(['bm25.run', 'recall.svg', 'report.json']);
      const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { results: { method: string }[] };
      expect(report.results.map((x) => x.method)).toEqual(['bm25']);
      expect(readFileSync(join(out, 'recall.svg'), 'utf8')).toMatch(/<\/svg>\s*$/);
      expect(readFileSync(runFile, 'utf8').split('\n').filter(Boolean).length).toBeGreaterThan(0);
    },
    120_000,
  );
});
