/** A minimal ustar writer for tests of corpora/tar.ts: regular files, GNU long names above 100 bytes. */
import { gzipSync } from 'node:zlib';

function header(name: string, size: number, type: string): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(size.toString(8).padStart(11, '0') + '\0', 124);
  h.write('00000000000\0', 136);
  h.write(type, 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  h.fill(' ', 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
  return h;
}

const pad = (n: number) => Buffer.alloc((512 - (n % 512)) % 512);

export function tarGz(files: { name: string; data: string | Buffer }[]): Buffer {
  const parts: Buffer[] = [];
  for (const f of files) {
    const data = typeof f.data === 'string' ? Buffer.from(f.data) : f.data;
    if (Buffer.byteLength(f.name) > 100) {
      const long = Buffer.from(f.name + '\0');
      parts.push(header('././@LongLink', long.length, 'L'), long, pad(long.length));
    }
    parts.push(header(f.name, data.length, '0'), data, pad(data.length));
  }
  parts.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(parts));
}
