/**
 * Fast streaming reader for the benchmark's JSONL corpora: large chunked reads, split on newlines,
 * one JSON.parse per line. Passages are yielded one at a time; the file is never held in memory.
 */
import { createReadStream } from 'node:fs';
import type { Passage } from '../corpora/types.js';

export function readPassagesJsonl(file: string): AsyncGenerator<Passage> {
  return readPassagesJsonlStream(createReadStream(file, { encoding: 'utf8', highWaterMark: 4 << 20 }));
}

/** The same reader over a stream (the scale bench's generator process writes JSONL to a pipe); a UTF-8
 * character split across two Buffer chunks is decoded whole (streaming TextDecoder). */
export async function* readPassagesJsonlStream(stream: AsyncIterable<Buffer | string>): AsyncGenerator<Passage> {
  let rest = '';
  const utf8 = new TextDecoder();
  for await (const chunk of stream) {
    const text = rest + (typeof chunk === 'string' ? chunk : utf8.decode(chunk, { stream: true }));
    let start = 0;
    let nl = text.indexOf('\n', start);
    while (nl !== -1) {
      if (nl > start) yield JSON.parse(text.slice(start, nl)) as Passage;
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    rest = text.slice(start);
  }
  if (rest.trim()) yield JSON.parse(rest) as Passage;
}
