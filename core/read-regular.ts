/**
 * Read a file only when it is a regular file. A FIFO (or a socket, a device) where a run file is
 * expected — `results.jsonl` made with mkfifo under `lexcase serve --runs` — used to block the
 * open forever: with the sync call the whole server, with the async one a thread of libuv's small
 * pool per request, until every file operation (and so SIGTERM's clean shutdown) waited behind
 * them. The file is opened with O_NONBLOCK (opening a FIFO then returns at once; regular files
 * are unaffected) and fstat'ed through the same descriptor, so nothing can be swapped in between;
 * anything but a regular file is an ENOTREGULAR error, which callers treat like an unreadable file.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';

const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function notRegular(file: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${file}: not a regular file (a FIFO, socket or device); not read`), { code: 'ENOTREGULAR', path: file });
}

/** The text of `file` if it is a regular file; ENOTREGULAR (never blocks) otherwise. */
export function readRegularFileSync(file: string): string {
  const fd = openSync(file, FLAGS);
  try {
    if (!fstatSync(fd).isFile()) throw notRegular(file);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The text of `file` if it is a regular file; ENOTREGULAR (never blocks) otherwise. */
export async function readRegularFile(file: string): Promise<string> {
  return (await readRegularBytes(file)).toString('utf8');
}

/** The bytes of `file` if it is a regular file; ENOTREGULAR (never blocks) otherwise. */
export async function readRegularBytes(file: string): Promise<Buffer> {
  const h = await open(file, FLAGS);
  try {
    if (!(await h.stat()).isFile()) throw notRegular(file);
    return await h.readFile();
  } finally {
    await h.close();
  }
}

/** The sha256 (hex) of `file`'s bytes if it is a regular file, read in 1 MiB pieces; ENOTREGULAR (never blocks) otherwise. */
export async function regularFileSha256(file: string): Promise<string> {
  const h = await open(file, FLAGS);
  try {
    if (!(await h.stat()).isFile()) throw notRegular(file);
    const hash = createHash('sha256');
    const buf = Buffer.alloc(1 << 20);
    for (;;) {
      const { bytesRead } = await h.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
    }
    return hash.digest('hex');
  } finally {
    await h.close();
  }
}

/** Append `text` to `file` (created if absent) only if it is a regular file; a FIFO without a reader fails at once (ENXIO) instead of blocking. */
export function appendRegularFileSync(file: string, text: string): void {
  const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NONBLOCK ?? 0), 0o644);
  try {
    if (!fstatSync(fd).isFile()) throw notRegular(file);
    const b = Buffer.from(text);
    for (let off = 0; off < b.length; ) off += writeSync(fd, b, off);
  } finally {
    closeSync(fd);
  }
}
