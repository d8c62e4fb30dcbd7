/**
 * Compressed copies of the explorer's assets, chosen by the request's Accept-Encoding: brotli when
 * the client accepts it, else gzip, else the bytes as they are (node:zlib; no dependency). The
 * copies are made once — at `npm run build` (web/build-assets.ts writes app.js.br / app.js.gz) or,
 * from the TypeScript sources, when the server starts — never per request.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type Encoding = 'br' | 'gzip';
export const ENCODINGS: readonly Encoding[] = ['br', 'gzip'];
/** Smaller bodies gain nothing worth a Content-Encoding. */
export const MIN_COMPRESS_BYTES = 1024;

export function compress(body: Buffer, enc: Encoding): Buffer {
  return enc === 'br'
    ? brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      })
    : gzipSync(body, { level: 9 });
}

/** The coding to send for an Accept-Encoding header, of those available: br before gzip; none with q=0. */
export function negotiate(acceptEncoding: string | string[] | undefined, available: readonly Encoding[]): Encoding | undefined {
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : (acceptEncoding ?? '');
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const v = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(v) ? v : 0);
  }
  const ok = (e: string) => (q.get(e) ?? (q.has('*') ? q.get('*')! : 0)) > 0;
  return ENCODINGS.find((e) => available.includes(e) && ok(e));
}
