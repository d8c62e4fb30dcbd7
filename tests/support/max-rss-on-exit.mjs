// Preloaded into a CLI child (`node --import <this file>`): on exit, writes the process's peak
// resident set size in KiB (process.resourceUsage().maxRSS) to the file named by LEXCASE_TEST_MAX_RSS_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.LEXCASE_TEST_MAX_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
