// Preloaded into a CLI child (`node --import <this file>`): on exit, writes the process's own peak
// resident set size in KiB to the file named by LEXCASE_TEST_MAX_RSS_FILE — VmHWM of /proc/self/status,
// not process.resourceUsage().maxRSS, which on Linux starts from the parent's RSS at spawn: in the slow
// tier's shared workers (a worker that had grown to 300 MB over earlier files) a search child that
// peaked at ~80 MB reported 314 MB (bench/measure.ts ownPeakRssKiB, the same rule).
import { readFileSync, writeFileSync } from 'node:fs';

function ownPeakKiB() {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]);
  } catch {
    /* not Linux */
  }
  return process.resourceUsage().maxRSS;
}

const file = process.env.LEXCASE_TEST_MAX_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(ownPeakKiB())));
