/**
 * A benchmark child's peak RSS is its own (bench/measure.ts ownPeakRssKiB: VmHWM), not at least its
 * driver's: getrusage's maxRSS, which bench/child.ts, bench/scale-child.ts and bench/bm25s-peer.py
 * reported before, starts on Linux from the parent's RSS at spawn. Here the parent holds 512 MiB
 * (touched) and starts a child that allocates nothing: the child's maxRSS reads ≥ 512 MiB, its own
 * peak stays that of a small Node process. (Linux: elsewhere both are maxRSS and the test is skipped.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const MEASURE = join(import.meta.dirname, 'measure.ts');

it.skipIf(!existsSync('/proc/self/status'))("a child's peak RSS is its own, not its parent's RSS at spawn (the parent holds 512 MiB)", () => {
  const held = Buffer.alloc(512 * 1024 * 1024, 1);
  const script = `import(${JSON.stringify(MEASURE)}).then((m) => console.log(JSON.stringify({ own: m.ownPeakRssKiB(), maxRSS: process.resourceUsage().maxRSS })))`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8' });
  const { own, maxRSS } = JSON.parse(out.trim().split('\n').at(-1)!) as { own: number; maxRSS: number };
  expect(held[held.length - 1]).toBe(1);
  expect(maxRSS / 1024, 'getrusage maxRSS carries the parent over (why it is not used)').toBeGreaterThan(512);
  expect(own / 1024).toBeGreaterThan(10);
  expect(own / 1024).toBeLessThan(300);
});
