/**
 * Ctrl-C during `lexcase eval run`, as a user meets it: the built CLI in a child process reading a
 * run file of 1,000 topics × 1,000 results (31 MB); the signal is sent once the process holds the
 * run file open (/proc/PID/fd), so it is mid-way. Before, Node's default ended it without a word
 * (exit status null, signal SIGINT), unlike `run <system>`, `index build` and `demo`; now it says it
 * stopped before printing its figures and wrote no file, gives the command that starts it again, and
 * exits 130 (SIGTERM: 143), as `run <system>` does.
 */
import { existsSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, lexcase, startLexcase, STACK_TRACE } from '../../../tests/support/spawn-cli.js';

let dir: string;
let run: string;
let qrels: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-eval-run-interrupt-'));
  run = join(dir, 'bm25.run');
  qrels = join(dir, 'qrels.txt');
  const runLines: string[] = [];
  const qrelLines: string[] = [];
  for (let q = 1; q <= 1000; q++) {
    for (let r = 1; r <= 1000; r++) runLines.push(`q${q} Q0 doc${(q * 7919 + r * 104729) % 500_000} ${r} ${(1000 - r) / 10} bm25`);
    for (let j = 1; j <= 3; j++) qrelLines.push(`q${q} 0 doc${(q * 7919 + j * 31 * 104729) % 500_000} 1`);
  }
  writeFileSync(run, `${runLines.join('\n')}\n`);
  writeFileSync(qrels, `${qrelLines.join('\n')}\n`);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether process `pid` holds `file` open (Linux /proc). */
const holdsOpen = (pid: number, file: string): boolean => {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
};

describe.runIf(existsSync('/proc/self/fd'))('Ctrl-C during lexcase eval run', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    '%s while it reads the run file: one message, the command to start again, exit %i, nothing printed on stdout',
    async (signal, code) => {
      const args = ['eval', 'run', run, '--qrels', qrels];
      const s = startLexcase(args, { cwd: dir });
      while (!holdsOpen(s.child.pid!, run)) {
        if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error(`eval run ended before it opened the run file:\n${s.stderr}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      const r = await s.stop(signal);
      // before: code null, signal SIGINT, stderr empty
      expect(r.signal).toBeNull();
      expect(r.code).toBe(code);
      expect(r.stderr).toBe(
        `interrupted (${signal}): eval run stopped before it printed its figures; it writes no file, so nothing is half-written.\nto start again: lexcase eval run ${run} --qrels ${qrels}\n`,
      );
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(r.stdout).toBe('');
      expect(readdirSync(dir).sort()).toEqual(['bm25.run', 'qrels.txt']);
    },
    120_000,
  );

  it('run to the end, it prints its figures and exits 0 (the handlers gone with it)', async () => {
    const r = await lexcase(['eval', 'run', run, '--qrels', qrels, '--metrics', 'recall@10'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/recall@10/i);
  }, 150_000);
});
