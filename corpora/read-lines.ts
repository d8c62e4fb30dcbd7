/**
 * Stream a text file line by line, any size, as UTF-8. `.gz` files are gunzipped on the fly
 * (node:zlib). Invalid UTF-8 bytes become U+FFFD (replacement characters) instead of crashing;
 * a UTF-8 byte-order mark is dropped; "\r\n" line ends are accepted.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { errors } from '../src/errors.js';

export interface Line {
  /** 1-based line number in the (decompressed) file. */
  line: number;
  text: string;
}

/** Throws CORPUS_NOT_FOUND when the file does not exist or is a directory. */
export async function assertReadableFile(file: string): Promise<void> {
  try {
    const s = await stat(file);
    if (!s.isFile()) throw new Error('not a file');
  } catch {
    throw errors.corpusNotFound(file);
  }
}

/** A byte stream of the file, gunzipped when the name ends in .gz. */
export function openBytes(file: string): Readable {
  const raw = createReadStream(file);
  if (!file.endsWith('.gz')) return raw;
  const gunzip = createGunzip();
  raw.on('error', (e) => gunzip.destroy(e));
  return raw.pipe(gunzip);
}

/** Decoded text chunks of the file (invalid bytes → U+FFFD). */
export async function* readTextChunks(file: string): AsyncGenerator<string> {
  await assertReadableFile(file);
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });
  try {
    for await (const chunk of openBytes(file)) {
      const text = decoder.decode(chunk as Buffer, { stream: true });
      if (text) yield text;
    }
  } catch (e) {
    throw errors.corpusParse(file, 0, `cannot read file: ${(e as Error).message}`, e);
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}

export async function* readLines(file: string): AsyncGenerator<Line> {
  let buf = '';
  let line = 0;
  for await (const chunk of readTextChunks(file)) {
    buf += chunk;
    let start = 0;
    let nl: number;
    while ((nl = buf.indexOf('\n', start)) !== -1) {
      const end = nl > start && buf.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      yield { line: ++line, text: buf.slice(start, end) };
      start = nl + 1;
    }
    buf = buf.slice(start);
  }
  if (buf.length) yield { line: ++line, text: buf.endsWith('\r') ? buf.slice(0, -1) : buf };
}
