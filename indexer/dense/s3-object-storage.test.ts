/**
 * `--dense-uri s3://…` for real: a local S3-compatible server (s3rver, on 127.0.0.1, a random port)
 * stands in for AWS S3 / MinIO / R2, configured only through the environment variables a user sets
 * (AWS_ENDPOINT, AWS_ALLOW_HTTP, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION; docs/dense.md).
 * The CLI builds a dense index into the bucket and searches it; a build interrupted after two
 * batches resumes without embedding a finished batch again; a second process reads the same
 * index from the bucket and ranks exactly as the first.
 */
import { counting } from './test-support/counting-embedder.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage } from '../../corpora/types.js';
import { openDenseRetriever } from '../../retrieval/dense.js';
import { createEmbedder } from '../embed/create-embedder.js';
import { runCli } from '../../tests/support/run-cli.js';
import { buildIndex } from '../build.js';
import { readManifest } from '../manifest.js';
import { addDenseIndex } from './add-dense.js';
import type { DenseSection } from './dense-section.js';
import { connectDense, existingIds, openDenseTable } from './lance-table.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const modelDir = join(repoRoot, 'tests/fixtures/tiny-embedder/tiny-bert');
const BUCKET = 'lexcase-test';
const passages: Passage[] = gunzipSync(readFileSync(join(repoRoot, 'corpora/data/barexam/passages.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 48)
  .map((l) => {
    const p = JSON.parse(l) as { id: string; text: string };
    return { id: p.id, text: p.text, source: 'barexam' };
  });

const ENV_KEYS = ['AWS_ENDPOINT', 'AWS_ALLOW_HTTP', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_REGION'] as const;
const savedEnv: Record<string, string | undefined> = {};
let server: S3rver;
let storeDir: string;
let tmp: string;
let corpusFile: string;
let s3env: Record<string, string>;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lexcase-s3-'));
  storeDir = join(tmp, 's3');
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: storeDir, configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = (await server.run()) as { port: number };
  s3env = {
    AWS_ENDPOINT: `http://127.0.0.1:${port}`,
    AWS_ALLOW_HTTP: 'true',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
  };
  for (const k of ENV_KEYS) {
    savedEnv[k] = process.env[k];
    process.env[k] = s3env[k];
  }
  corpusFile = join(tmp, 'passages.jsonl');
  writeFileSync(corpusFile, passages.map((p) => JSON.stringify(p)).join('\n') + '\n');
}, 60_000);

afterAll(async () => {
  for (const k of ENV_KEYS) {
    if (savedEnv[k] === undefined) delete process.env[k];
    else process.env[k] = savedEnv[k];
  }
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Object keys the server holds under a bucket prefix (s3rver stores one directory per key). */
function objectsUnder(prefix: string): string[] {
  const root = join(storeDir, BUCKET, prefix);
  if (!existsSync(root)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(join(d, e.name));
    }
  };
  walk(root);
  return out;
}

/** `lexcase --json search …` in a fresh Node process with only the S3 variables to find the index. */
function searchInChild(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'src/cli/main.ts'), '--json', 'search', ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmp, ...s3env, LEXCASE_OFFLINE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', rej);
    child.on('close', (code) => res({ code: code ?? -1, stdout, stderr }));
  });
}

describe('dense index on S3-compatible object storage (s3rver on 127.0.0.1)', () => {
  const idx = () => join(tmp, 'idx-cli');
  const uri = `s3://${BUCKET}/indexes/barexam-48`;

  it('index build --dense-uri s3://… writes the vectors to the bucket, not the index dir, and search reads them back', async () => {
    const r = await runCli([
      '--json',
      'index',
      'build',
      corpusFile,
      '--out',
      idx(),
      '--workers',
      '0',
      '--embedder',
      'transformers',
      '--model-dir',
      modelDir,
      '--dense-uri',
      uri,
      '--embed-batch',
      '16',
    ]);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    const d = (await readManifest(idx())).dense as unknown as DenseSection;
    // outside the index dir the table is the index's own: passages-<owner>
    expect(d).toMatchObject({ uri, rows: passages.length, table: `passages-${d.owner}` });
    expect(existsSync(join(idx(), 'dense'))).toBe(false);
    const objects = objectsUnder(`indexes/barexam-48/${d.table}.lance`);
    expect(objects.some((f) => f.includes('_versions'))).toBe(true);
    expect(objects.some((f) => f.includes('data'))).toBe(true);

    const target = passages[7];
    const s = await runCli(['--json', 'search', target.text, '--index', idx(), '--method', 'dense', '-k', '3']);
    expect(s.code).toBe(0);
    const hits = JSON.parse(s.stdout).hits as { id: string; score: number }[];
    expect(hits).toHaveLength(3);
    expect(hits[0].id).toBe(target.id);
  }, 180_000);

  it('a second process opens the same index from the bucket and ranks exactly as this one', async () => {
    const query = passages[20].text.split(' ').slice(0, 25).join(' ');
    const here = await runCli(['--json', 'search', query, '--index', idx(), '--method', 'dense', '-k', '5']);
    const there = await searchInChild([query, '--index', idx(), '--method', 'dense', '-k', '5']);
    expect(there.stderr).not.toMatch(/error/i);
    expect(there.code).toBe(0);
    const a = (JSON.parse(here.stdout).hits as { id: string; score: number }[]).map((h) => [h.id, h.score]);
    const b = (JSON.parse(there.stdout).hits as { id: string; score: number }[]).map((h) => [h.id, h.score]);
    expect(b).toEqual(a);
    expect(a[0][0]).toBe(passages[20].id);
  }, 180_000);

  it('an interrupted build into the bucket resumes: finished batches are not embedded again, no row is duplicated', async () => {
    const out = join(tmp, 'idx-resume');
    const resumeUri = `s3://${BUCKET}/indexes/resume`;
    await buildIndex(
      (async function* () {
        yield* passages;
      })(),
      { out, corpusName: 'barexam-48', methods: ['bm25'], workers: 0 },
    );
    const tiny = await createEmbedder({ provider: 'transformers', modelDir });
    const first = counting(tiny);
    const ac = new AbortController();
    await expect(
      addDenseIndex(out, {
        embedder: first,
        uri: resumeUri,
        batchSize: 8,
        signal: ac.signal,
        onProgress: (n) => n >= 16 && ac.abort(new Error('interrupted')),
      }),
    ).rejects.toThrow(/interrupted/);
    // 16 committed; the next batch may have been embedded while the second was appended (the
    // pipeline runs one batch ahead), never appended.
    expect(first.embedded).toBeGreaterThanOrEqual(16);
    expect(first.embedded).toBeLessThanOrEqual(24);
    // What the interrupted build committed is in the bucket.
    const db = await connectDense(resumeUri);
    const { table } = JSON.parse(readFileSync(join(out, 'dense-build.json'), 'utf8')) as { table: string };
    expect((await existingIds(await openDenseTable(db, table, resumeUri))).size).toBe(16);
    expect(existsSync(join(out, 'dense-build.json'))).toBe(true);

    const second = counting(tiny);
    const m = await addDenseIndex(out, { embedder: second, uri: resumeUri, batchSize: 8 });
    expect(second.embedded).toBe(passages.length - 16);
    expect((m.dense as unknown as DenseSection).table).toBe(table);
    const ids = await existingIds(await openDenseTable(await connectDense(resumeUri), table, resumeUri));
    expect(ids.size).toBe(passages.length);
    expect((m.dense as unknown as DenseSection).rows).toBe(passages.length);
    expect(existsSync(join(out, 'dense-build.json'))).toBe(false);

    const r = await openDenseRetriever(out);
    const hits = await r.search(passages[40].text, { k: 1 });
    expect(hits[0].id).toBe(passages[40].id);
    await r.close?.();
    await tiny.close?.();
  }, 180_000);
});
