/**
 * The regular files of a (gzipped) POSIX/ustar tar archive, in archive order — enough to read a
 * test collection shipped as .tar.gz (e.g. Anserini's cacm.tar.gz) without a dependency: 512-byte
 * headers (name at 0, size in octal at 124, type at 156, ustar prefix at 345), data padded to 512.
 * GNU long names ('L' entries) are honoured; other entry types are skipped.
 */
import { gunzipSync } from 'node:zlib';
import { errors } from '../core/errors.js';

export interface TarEntry {
  name: string;
  data: Buffer;
}

const str = (b: Buffer, from: number, len: number) => {
  const s = b.subarray(from, from + len);
  const z = s.indexOf(0);
  return s.subarray(0, z < 0 ? len : z).toString('utf8');
};

export function readTar(bytes: Buffer, file: string): TarEntry[] {
  const buf = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  const out: TarEntry[] = [];
  let longName: string | undefined;
  for (let off = 0; off + 512 <= buf.length; ) {
    const header = buf.subarray(off, off + 512);
    if (header.every((x) => x === 0)) break;
    const sizeText = str(header, 124, 12).trim();
    if (!/^[0-7]*$/.test(sizeText)) throw errors.fileParse(file, undefined, `not a tar archive (bad size field at byte ${off})`);
    const size = parseInt(sizeText || '0', 8);
    const type = String.fromCharCode(header[156] || 0x30);
    const magic = str(header, 257, 6);
    const prefix = magic.startsWith('ustar') ? str(header, 345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${str(header, 0, 100)}` : str(header, 0, 100));
    longName = undefined;
    const start = off + 512;
    if (start + size > buf.length) throw errors.fileParse(file, undefined, `tar entry "${name}" is cut short`);
    const data = buf.subarray(start, start + size);
    if (type === 'L') longName = str(data, 0, size);
    else if (type === '0' || type === '\0' || type === '7') out.push({ name, data: Buffer.from(data) });
    off = start + Math.ceil(size / 512) * 512;
  }
  return out;
}
