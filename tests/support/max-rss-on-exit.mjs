// Preloaded into a CLI child (`node --import <this file>`): on exit, writes the process's own peak
// resident set size in KiB to the file named by LEXCASE_TEST_MAX_RSS_FILE — bench/measure.ts
// ownPeakRssKiB (VmHWM of /proc/self/status), from the built dist/ the tests run against, not
// process.resourceUsage().maxRSS, which on Linux starts from the parent's RSS at spawn: in the slow
// tier's shared workers (a worker that had grown to 300 MB over earlier files) a search child that
// peaked at ~80 MB reported 314 MB.
import { writeFileSync } from 'node:fs';
import { ownPeakRssKiB } from '../../dist/bench/measure.js';

const file = process.env.LEXCASE_TEST_MAX_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(ownPeakRssKiB())));
