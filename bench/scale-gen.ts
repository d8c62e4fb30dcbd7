/**
 * The scale bench's corpus source: writes the seeded synthetic corpus (bench/synthetic.ts) as JSONL
 * to stdout, one passage at a time, and exits. Run as its own process beside the build process
 * (`node scale-gen.js '{"n":…,"seed":…,"profile":…}'`), so the build's CPU time and peak RSS are the
 * build's alone and no corpus file is written: a 10M-passage corpus is ~9 GB of JSONL. Writes to a
 * pipe block when it is full (stdout is synchronous for pipes on Linux): the build sets the pace.
 */
import { writeFileSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { syntheticPassagesSync, type CorpusProfile } from './synthetic.js';

export function writeCorpus(n: number, seed: number, profile: CorpusProfile, fd = 1): void {
  let buf = '';
  for (const p of syntheticPassagesSync({ n, seed, profile })) {
    buf += JSON.stringify(p) + '\n';
    if (buf.length > 1 << 20) {
      writeAll(fd, buf);
      buf = '';
    }
  }
  if (buf) writeAll(fd, buf);
}

function writeAll(fd: number, s: string): void {
  const b = Buffer.from(s);
  let off = 0;
  while (off < b.length) {
    try {
      off += writeSync(fd, b, off);
    } catch (e) {
      // A non-blocking pipe that is full: wait a moment and retry.
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const o = JSON.parse(process.argv[2] ?? '{}') as { n: number; seed: number; profile: CorpusProfile; cpuFile?: string };
  writeCorpus(o.n, o.seed, o.profile);
  const u = process.cpuUsage();
  if (o.cpuFile) writeFileSync(o.cpuFile, String((u.user + u.system) / 1e6));
}
