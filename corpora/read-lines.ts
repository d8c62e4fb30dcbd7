/**
 * Stream a text file line by line, any size, as UTF-8. `.gz` files are gunzipped on the fly
 * (node:zlib). Invalid UTF-8 bytes become U+FFFD (replacement characters) instead of crashing, and
 * the line says so (`invalidUtf8`: a reader of ids refuses it);
 * a UTF-8 byte-order mark is dropped; "\r\n" line ends are accepted. Linear in the file size
 * however long a line is; a line over the limit (default 64 MiB, LEXCASE_MAX_LINE_MB) is an error
 * naming file and line.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { stat } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { envNumber } from '../core/env-number.js';
import { errors, LexcaseError } from '../core/errors.js';
import { LineSplitter } from './line-splitter.js';

export interface Line {
  /** 1-based line number in the (decompressed) file. */
  line: number;
  text: string;
  /**
   * The line held bytes that are not UTF-8, each read as U+FFFD: two lines that differ only in them read
   * the same. Set only then (a file whose ids are compared, a run's or qrels' docids, refuses such a line).
   */
  invalidUtf8?: true;
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

/**
 * Why a file whose first bytes these are cannot be read as UTF-8 text, in words, or undefined: a UTF-16
 * file (a spreadsheet's "Unicode text"; its byte-order mark FF FE or FE FF) and a gzip file whose name
 * does not end in .gz. Both were refused at line 1 with a parser's message that quoted the bytes as
 * `"��{\u0000"\u0000i\u0000d…` or `"\u001f�\u0008…`.
 */
export function notUtf8Note(file: string, head: Buffer): string | undefined {
  const name = basename(file);
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) {
    const mark = head[0] === 0xff ? 'FF FE' : 'FE FF';
    return `the file is UTF-16 (it starts with the byte-order mark ${mark}) and lexcase reads UTF-8: convert it (iconv -f UTF-16 -t UTF-8 ${name} > utf8-${name})${/\.(csv|tsv|tab)$/i.test(name) ? ', or save it from the spreadsheet as "CSV UTF-8"' : ''}`;
  }
  if (!file.endsWith('.gz') && head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b)
    return `the file is gzip-compressed (it starts with the bytes 1F 8B) but its name does not end in .gz, which is how lexcase knows to decompress it: rename it to ${name}.gz, or gunzip it`;
  return undefined;
}

/** The first chunk of a file, refused when it says the file is not UTF-8 text (notUtf8Note). */
function checkHead(file: string, chunk: Buffer): void {
  const note = notUtf8Note(file, chunk);
  if (note) throw errors.corpusParse(file, 1, note);
}

/** Decoded text chunks of the file (invalid bytes → U+FFFD; a UTF-16 or unnamed gzip file is refused). */
export async function* readTextChunks(file: string): AsyncGenerator<string> {
  await assertReadableFile(file);
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });
  let first = true;
  try {
    for await (const chunk of openBytes(file)) {
      if (first) checkHead(file, chunk as Buffer);
      first = false;
      const text = decoder.decode(chunk as Buffer, { stream: true });
      if (text) yield text;
    }
  } catch (e) {
    if (e instanceof LexcaseError) throw e;
    throw errors.corpusParse(file, 0, `cannot read file: ${(e as Error).message}`, e);
  }
  const tail = decoder.decode();
  if (tail) yield tail;
}

/** Default longest line (bytes): LEXCASE_MAX_LINE_MB (MiB) when set, else 64 MiB. */
export function defaultMaxLineBytes(): number {
  const mb = envNumber('LEXCASE_MAX_LINE_MB', { min: 0, aboveMin: true, unit: 'MiB' }) ?? 64;
  return Math.floor(mb * 1024 * 1024);
}

export interface ReadLinesOptions {
  /** Longest line accepted, in bytes (default defaultMaxLineBytes()); a longer one is CORPUS_PARSE naming the line. */
  maxLineBytes?: number;
}

/**
 * Lines of a text file in linear time: the byte stream is split at "\n" (a byte that never occurs
 * inside a multi-byte UTF-8 sequence), and only a line's own pieces are joined and decoded, once.
 * (Appending chunks to one string and searching it from the start again was quadratic in the
 * length of a line: 47.7 s for one 80 MB line.)
 */
export async function* readLines(file: string, opts: ReadLinesOptions = {}): AsyncGenerator<Line> {
  await assertReadableFile(file);
  const limit = opts.maxLineBytes ?? defaultMaxLineBytes();
  const split = new LineSplitter(limit, (n) => errors.lineTooLong(file, n, limit));
  const decode = (bytes: Buffer, line: number): string => {
    let end = bytes.length;
    if (end && bytes[end - 1] === 13) end--;
    let text = bytes.toString('utf8', 0, end);
    if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return text;
  };
  // U+FFFD in the text: the file's own replacement character, or bytes that were not UTF-8 (checked only then)
  const at = (bytes: Buffer, line: number): Line => {
    const text = decode(bytes, line);
    return text.includes('\uFFFD') && !isUtf8(bytes) ? { line, text, invalidUtf8: true } : { line, text };
  };
  let line = 0;
  let first = true;
  const stream = openBytes(file);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (first) checkHead(file, chunk);
      first = false;
      for (const bytes of split.push(chunk)) {
        line++;
        yield at(bytes, line);
      }
    }
  } catch (e) {
    if (e instanceof LexcaseError) throw e;
    throw errors.corpusParse(file, line + 1, `cannot read file: ${(e as Error).message}`, e);
  } finally {
    stream.destroy();
  }
  const last = split.end();
  if (last) {
    line++;
    yield at(last, line);
  }
}
