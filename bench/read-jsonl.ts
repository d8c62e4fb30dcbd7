/**
 * Fast streaming reader for the benchmark's JSONL corpora: lines split at the byte "\n" (which never
 * occurs inside a multi-byte UTF-8 sequence), each line decoded and parsed on its own. Passages are
 * yielded one at a time; the file is never held in memory.
 *
 * A file is read into one buffer, reused for the whole file: a fresh 4 MiB chunk per read, decoded
 * into one string and joined to the last chunk's rest, made three large allocations per chunk, each
 * on pages the process had never touched (V8 maps large objects one by one and unmaps them after a
 * GC). On this project's 2-core VMs a first touch of a page costs ~11 µs (a 800 MiB fill: 2.4 s the
 * first time, 0.04 s the second), and that reader made ~68 % of a build's page faults
 * (docs/notes/2026-12-04-build-page-faults.md).
 */
import { open } from 'node:fs/promises';
import { LineSplitter } from '../corpora/line-splitter.js';
import type { Passage } from '../corpora/types.js';

const parseLine = (buf: Buffer, start: number, end: number): Passage => JSON.parse(buf.toString('utf8', start, end)) as Passage;

/** The passages of a JSONL file, read into one reused buffer (grown only for a line longer than it). */
export async function* readPassagesJsonl(file: string, bufferBytes = 4 << 20): AsyncGenerator<Passage> {
  const fh = await open(file, 'r');
  try {
    let buf = Buffer.allocUnsafeSlow(bufferBytes);
    let have = 0;
    for (;;) {
      if (have === buf.length) {
        const grown = Buffer.allocUnsafeSlow(buf.length * 2);
        buf.copy(grown, 0, 0, have);
        buf = grown;
      }
      const { bytesRead } = await fh.read(buf, have, buf.length - have, null);
      have += bytesRead;
      const view = buf.subarray(0, have);
      let start = 0;
      for (let nl = view.indexOf(10); nl !== -1; nl = view.indexOf(10, start)) {
        if (nl > start) yield parseLine(buf, start, nl);
        start = nl + 1;
      }
      if (bytesRead === 0) {
        // The end of the file: a last line without its newline.
        if (start < have && buf.toString('utf8', start, have).trim()) yield parseLine(buf, start, have);
        return;
      }
      buf.copyWithin(0, start, have);
      have -= start;
    }
  } finally {
    await fh.close();
  }
}

/**
 * The same reader over a stream of Buffers (the scale bench's generator process writes JSONL to a
 * pipe), split by corpora/line-splitter.ts: a line split across chunks (a UTF-8 character too) is
 * joined from its pieces and decoded whole.
 */
export async function* readPassagesJsonlStream(stream: AsyncIterable<Buffer | string>): AsyncGenerator<Passage> {
  const split = new LineSplitter();
  for await (const c of stream)
    for (const line of split.push(typeof c === 'string' ? Buffer.from(c, 'utf8') : c)) if (line.length) yield parseLine(line, 0, line.length);
  const last = split.end();
  if (last?.toString('utf8').trim()) yield parseLine(last, 0, last.length);
}
