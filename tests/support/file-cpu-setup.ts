/**
 * Vitest setup of both tiers: with LEXCASE_FILE_CPU_LOG=FILE set, each test file appends one JSON
 * line {file, pid, cpuS, wallS} to FILE — the CPU seconds (user + system) its worker and the child
 * processes it waited for (a built `lexcase`, a browser, Java, npm) spent while the file ran. A worker
 * runs one file at a time (shared workers run theirs one after another), so the figure is the file's
 * own, at any worker count. Unset (the default), it does nothing. Linux only (/proc/self/stat).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, expect } from 'vitest';

const log = process.env.LEXCASE_FILE_CPU_LOG;

/** utime + stime + cutime + cstime of this process, in seconds. */
function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields 14–17 of proc(5), counted from 1; f[0] is field 3
  const ticks = [11, 12, 13, 14].reduce((s, i) => s + Number(f[i]), 0);
  return ticks / 100;
}

if (log) {
  // taken when the setup runs, before the file's own imports (a shared worker runs the setup again per file)
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  afterAll(() => {
    const file = relative(process.cwd(), expect.getState().testPath ?? '');
    const line = { file, pid: process.pid, cpuS: +(cpuSeconds() - cpu0).toFixed(2), wallS: +((performance.now() - t0) / 1000).toFixed(2) };
    appendFileSync(log, `${JSON.stringify(line)}\n`);
  });
}
