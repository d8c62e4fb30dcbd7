/**
 * Content coding of the explorer's assets: Accept-Encoding picks brotli before gzip and honours
 * q=0 and "*"; the build's precompressed <name>.br / <name>.gz files are what the server serves
 * (read back, not made again), and they decode to the asset's bytes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodedCopies, precompressedFiles } from './assets.js';
import { negotiate } from './content-encoding.js';

describe('content encoding', () => {
  it('negotiates br before gzip, honours q=0 and "*", and offers nothing the asset lacks', () => {
    const both = ['br', 'gzip'] as const;
    expect(negotiate('gzip, deflate, br', both)).toBe('br');
    expect(negotiate('gzip, deflate', both)).toBe('gzip');
    expect(negotiate('br;q=0, gzip;q=0.5', both)).toBe('gzip');
    expect(negotiate('br;q=0, gzip;q=0', both)).toBeUndefined();
    expect(negotiate('*', both)).toBe('br');
    expect(negotiate('*, br;q=0', both)).toBe('gzip');
    expect(negotiate('identity', both)).toBeUndefined();
    expect(negotiate(undefined, both)).toBeUndefined();
    expect(negotiate('br', ['gzip'])).toBeUndefined();
  });

  it("serves the build's precompressed copies; they decode to the asset; tiny bodies are not compressed", () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-enc-'));
    try {
      const body = Buffer.from('function explorer(){return "hearsay";}\n'.repeat(200));
      for (const [name, bytes] of precompressedFiles('app.js', body)) writeFileSync(join(dir, name), bytes);
      const copies = encodedCopies(body, dir, 'app.js');
      expect(gunzipSync(copies.gzip!).equals(body)).toBe(true);
      expect(brotliDecompressSync(copies.br!).equals(body)).toBe(true);
      // read back from the build, not made again: a marker file is what comes back
      writeFileSync(join(dir, 'app.js.gz'), 'built copy');
      expect(encodedCopies(body, dir, 'app.js').gzip!.toString()).toBe('built copy');
      expect(encodedCopies(Buffer.from('tiny'))).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
