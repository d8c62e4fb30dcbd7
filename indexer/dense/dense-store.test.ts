/**
 * A dense store in object storage that does not answer (`--dense-uri s3://…` with AWS_ENDPOINT at a
 * closed port on 127.0.0.1): the build stops before the sparse build with one line naming the store,
 * the endpoint and the cause once. Before, BM25 was built (and the embedder loaded) first, then the
 * build failed with a 1,709-character "lance error: …" line that restated its cause chain eight times.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../build.js';
import { readManifest } from '../manifest.js';
import { lanceErrorLine } from './dense-store.js';

/** The message LanceDB gave `lexcase index build barexam --dense-uri s3://lexcase/barexam` with AWS_ENDPOINT=http://127.0.0.1:9 (nothing listening). */
const REFUSED =
  'lance error: LanceError(IO): Generic S3 error: Error performing list request: Error performing GET http://127.0.0.1:9/lexcase?list-type=***&prefix=*** in 534.435169ms, after 3 retries, max_retries: 3, retry_timeout: 180s  - HTTP error: error sending request, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-io-8.0.0/src/object_store.rs:849:92  Caused by: LanceError(IO): Generic S3 error: Error performing list request: Error performing GET http://127.0.0.1:9/lexcase?list-type=***&prefix=*** in 534.435169ms, after 3 retries, max_retries: 3, retry_timeout: 180s  - HTTP error: error sending request, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-io-8.0.0/src/object_store.rs:849:92    Caused by: Generic S3 error: Error performing list request: Error performing GET http://127.0.0.1:9/lexcase?list-type=***&prefix=*** in 534.435169ms, after 3 retries, max_retries: 3, retry_timeout: 180s  - HTTP error: error sending request      Caused by: Error performing list request: Error performing GET http://127.0.0.1:9/lexcase?list-type=***&prefix=*** in 534.435169ms, after 3 retries, max_retries: 3, retry_timeout: 180s  - HTTP error: error sending request        Caused by: Error performing GET http://127.0.0.1:9/lexcase?list-type=***&prefix=*** in 534.435169ms, after 3 retries, max_retries: 3, retry_timeout: 180s  - HTTP error: error sending request          Caused by: HTTP error: error sending request            Caused by: HTTP error: error sending request              Caused by: error sending request                Caused by: client error (Connect)                  Caused by: tcp connect error                    Caused by: Connection refused (os error 111)';

const passages = Array.from({ length: 6 }, (_, i) => ({ id: `p${i}`, text: `adverse possession of land number ${i}` }));
const ENV = { AWS_ALLOW_HTTP: 'true', AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' };
const saved: Record<string, string | undefined> = {};
let root: string;

/**
 * A port on 127.0.0.1 that refuses connections for the whole test: a privileged one (below 1024) with
 * nothing listening, found by a refused connect. A port bound and closed again (as before) is an
 * ephemeral one another test's server can take meanwhile — in CI a scripted server did, and the build
 * met a 404 instead of a refused connection. Ports handed out for port 0 are never below 1024.
 */
async function closedPort(): Promise<number> {
  for (const port of [1, 3, 9, 13, 17, 19, 47, 99, 199, 411, 999]) {
    const refused = await new Promise<boolean>((r) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        r(false);
      });
      s.once('error', (e: NodeJS.ErrnoException) => r(e.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
  throw new Error('no closed privileged port on 127.0.0.1');
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-dense-store-'));
  for (const k of [...Object.keys(ENV), 'AWS_ENDPOINT']) saved[k] = process.env[k];
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  rmSync(root, { recursive: true, force: true });
});

describe('a dense store that does not answer', () => {
  it("LanceDB's cause chain reads as its innermost cause once, with the request and its retries", () => {
    expect(REFUSED.length).toBe(1709);
    expect(REFUSED.split('Connection refused').length - 1).toBe(1);
    expect(REFUSED.split('error sending request').length - 1).toBe(8);
    expect(lanceErrorLine(REFUSED)).toBe('Connection refused (os error 111) (list request, after 3 retries)');
    expect(lanceErrorLine('lance error: LanceError(IO): table not found, /x/lance-io/src/a.rs:1:2')).toBe('table not found');
  });

  it('index build --methods bm25,dense into s3:// at a closed port stops before the sparse build, one line naming store, endpoint and cause; the index there stays', async () => {
    const out = join(root, 'idx');
    await buildIndex(passages, { out, methods: ['bm25'] });
    const before = (await readManifest(out)).createdAt;
    Object.assign(process.env, ENV, { AWS_ENDPOINT: `http://127.0.0.1:${await closedPort()}` });
    let sparseBuilt = false;
    const err = await buildIndex(passages, {
      out,
      methods: ['bm25', 'dense'],
      dense: { uri: 's3://lexcase/barexam', embedder: { provider: 'use-lite' } },
      onSparseBuilt: () => {
        sparseBuilt = true;
      },
    }).catch((e: Error) => e);
    expect(String((err as Error).message)).toMatch(
      /^cannot reach the dense store s3:\/\/lexcase\/barexam at http:\/\/127\.0\.0\.1:\d+: Connection refused \(os error \d+\) \(list request, after \d+ retries\); nothing was built\n {2}hint: check the endpoint/,
    );
    expect((err as { code?: string }).code).toBe('EMBEDDER_UNAVAILABLE');
    // nothing was built for nothing: the store was checked before BM25 (before, BM25 was built, then thrown away)
    expect(sparseBuilt).toBe(false);
    expect((await readManifest(out)).createdAt).toBe(before);
    expect(existsSync(`${out}.tmp-${process.pid}`)).toBe(false);
  }, 120_000);
});
