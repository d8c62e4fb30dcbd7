/**
 * LEXCASE_VERIFY=1 on a dense search's open: the dense LanceDB table's files the manifest records are
 * hashed on a process's first open, as the index dir's data files are. Before, `index verify` caught a
 * vector byte flipped in a `.lance` data file, but a dense (or hybrid) search with LEXCASE_VERIFY=1
 * opened the table on its owner and row count alone and ranked from the damaged vector. The index is a
 * real one: 40 bundled Bar Exam passages embedded by the tiny random-weight BERT fixture (transformers);
 * the CLI runs in-process (runCli).
 */
import { cpSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDenseRetriever } from '../../retrieval/dense.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import { runCli } from '../../tests/support/run-cli.js';
import { buildTinyBertIndex, tinyBertPassages } from '../../tests/support/tiny-bert-index.js';
import { forgetVerifiedOpens, hashStats } from '../integrity.js';
import { readManifest } from '../manifest.js';
import type { DenseSection } from './dense-section.js';
import { connectDense, openDenseTable } from './lance-table.js';

const PASSAGES = tinyBertPassages();
const TARGET = PASSAGES[7];
const ENV = ['LEXCASE_VERIFY', 'LEXCASE_VERIFY_CACHE_DIR', 'LEXCASE_VERIFY_MAX_MB'] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));

let tmp: string;
let idx: string;
let cache: string;
let n = 0;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-verify-dense-open-'));
  idx = join(tmp, 'idx');
  cache = join(tmp, 'verified');
  for (const k of ENV) delete process.env[k];
  process.env.LEXCASE_VERIFY_CACHE_DIR = cache;
  await buildTinyBertIndex(idx, PASSAGES);
}, 120_000);
afterAll(async () => {
  for (const k of ENV)
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  await closeSparseIndexes();
  await rm(tmp, { recursive: true, force: true });
});

/** A copy of the built index (its own realpath, so its own verification records). */
const copy = (): string => {
  const d = join(tmp, `copy-${n++}`);
  cpSync(idx, d, { recursive: true });
  return d;
};
const tableDir = (d: string) => join(d, 'dense', 'passages.lance');
const recordedFiles = async (d: string) => ((await readManifest(d)).dense as unknown as DenseSection).files ?? {};

/** The cosine of TARGET's own text with TARGET's stored vector, through a dense search's open. */
async function selfScore(d: string): Promise<number> {
  const r = await openDenseRetriever(d);
  try {
    const [s] = await r.similarities!(TARGET.text, [TARGET.id]);
    return s.score;
  } finally {
    await r.close();
  }
}

/** selfScore with LEXCASE_VERIFY unset (the default: structural checks only). */
async function unverifiedSelfScore(d: string): Promise<number> {
  const mode = process.env.LEXCASE_VERIFY;
  delete process.env.LEXCASE_VERIFY;
  try {
    return await selfScore(d);
  } finally {
    if (mode !== undefined) process.env.LEXCASE_VERIFY = mode;
  }
}

/**
 * Flip the sign bit of one component of TARGET's stored vector (one byte) in the table data file a
 * dense search reads it from; that file's path. (The build's batch files stay beside the compacted
 * one, so two data files hold the vector: a file whose flip leaves the score as it was is put back.)
 */
async function flipOneVectorByte(d: string): Promise<string> {
  const intact = await unverifiedSelfScore(idx);
  const t = await openDenseTable(await connectDense(join(d, 'dense')), 'passages', d);
  const [row] = (await t.query().where(`id = '${TARGET.id}'`).select(['vector']).toArray()) as Array<{ vector: { toArray(): Float32Array } }>;
  const vector = Buffer.from(Float32Array.from(row.vector.toArray()).buffer);
  const data = join(tableDir(d), 'data');
  for (const name of readdirSync(data).sort()) {
    const file = join(data, name);
    const bytes = readFileSync(file);
    const at = bytes.indexOf(vector);
    if (at < 0) continue;
    bytes[at + 3] ^= 0x80;
    writeFileSync(file, bytes);
    if (Math.abs((await unverifiedSelfScore(d)) - intact) > 1e-3) return file;
    bytes[at + 3] ^= 0x80;
    writeFileSync(file, bytes);
  }
  throw new Error(`no data file of ${d} that a search reads holds ${TARGET.id}'s vector`);
}

const records = () =>
  readdirSync(cache)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(cache, f), 'utf8')) as { dir: string; files: Record<string, string> });

it('LEXCASE_VERIFY unset: a dense search over a flipped vector byte still opens (structural checks only) and scores from the damaged vector', async () => {
  const d = copy();
  const file = await flipOneVectorByte(d);
  expect(file).toMatch(/passages\.lance\/data\/[^/]+\.lance$/);
  const s0 = hashStats();
  const intact = await selfScore(idx);
  const damaged = await selfScore(d);
  expect(hashStats().bytes).toBe(s0.bytes); // nothing hashed by default
  expect(intact).toBeCloseTo(1, 4);
  expect(Math.abs(damaged - intact)).toBeGreaterThan(1e-3);
});

it('LEXCASE_VERIFY=1: a dense or hybrid search over a vector byte flipped since the last verified open is INDEX_CORRUPT naming the file and both digests', async () => {
  process.env.LEXCASE_VERIFY = '1';
  try {
    const d = copy();
    forgetVerifiedOpens();
    expect(await selfScore(d)).toBeCloseTo(1, 4); // verified clean, record written
    const file = await flipOneVectorByte(d);
    forgetVerifiedOpens(); // a new process
    const hint = `rebuild the dense part: lexcase index dense ${d} --rebuild`;
    const want = {
      code: 'INDEX_CORRUPT',
      message: `${file}: index file is corrupt: sha256 ${'x'} does not match the manifest's ${'y'}\n  hint: ${hint}`,
      details: { file, hint },
    };
    const digest = /sha256 [0-9a-f]{12}… does not match the manifest's [0-9a-f]{12}…/;
    const e = await openDenseRetriever(d).catch((x: Error) => x);
    expect({ ...e, message: (e as Error).message.replace(digest, "sha256 x does not match the manifest's y") }).toMatchObject(want);
    expect((e as Error).message).toMatch(digest);
    forgetVerifiedOpens();
    await expect(openRetriever(d, 'hybrid')).rejects.toMatchObject({ code: 'INDEX_CORRUPT', details: { file, hint } });
    // LEXCASE_VERIFY_MAX_MB bounds the table's files as it bounds the index dir's: over it, not hashed
    const tableBytes = Object.values(await recordedFiles(d)).reduce((a, f) => a + f.size, 0);
    process.env.LEXCASE_VERIFY_MAX_MB = String((tableBytes - 1) / (1024 * 1024));
    forgetVerifiedOpens();
    const s0 = hashStats();
    await (await openDenseRetriever(d)).close();
    expect(hashStats().bytes).toBe(s0.bytes);
  } finally {
    delete process.env.LEXCASE_VERIFY;
    delete process.env.LEXCASE_VERIFY_MAX_MB;
  }
});

it('LEXCASE_VERIFY=1 on an intact index: the first open hashes the recorded table files and writes a record outside the index; the next process hashes nothing; always ignores it', async () => {
  process.env.LEXCASE_VERIFY = '1';
  try {
    const d = copy();
    const recorded = await recordedFiles(d);
    const tableBytes = Object.keys(recorded).reduce((a, rel) => a + statSync(join(tableDir(d), rel)).size, 0);
    const listing = () => JSON.stringify(readdirSync(d, { recursive: true }).sort());
    const before = listing();
    forgetVerifiedOpens();
    const s0 = hashStats();
    const first = await selfScore(d);
    const s1 = hashStats();
    expect(first).toBeCloseTo(1, 4);
    expect(s1.bytes - s0.bytes).toBe(tableBytes);
    expect(s1.files - s0.files).toBe(Object.keys(recorded).length);
    const mine = records().find((r) => r.dir === realpathSync(tableDir(d)));
    expect(Object.keys(mine?.files ?? {}).sort()).toEqual(Object.keys(recorded).sort());
    expect(listing()).toBe(before); // nothing written inside the index dir

    forgetVerifiedOpens();
    expect(await selfScore(d)).toBe(first);
    const s2 = hashStats();
    expect(s2.bytes).toBe(s1.bytes);
    expect(s2.recordHits).toBe(s1.recordHits + 1);

    process.env.LEXCASE_VERIFY = 'always';
    forgetVerifiedOpens();
    expect(await selfScore(d)).toBe(first);
    expect(hashStats().bytes - s2.bytes).toBe(tableBytes);
  } finally {
    delete process.env.LEXCASE_VERIFY;
  }
});

it('`lexcase search --method dense` over the flipped byte: without LEXCASE_VERIFY it answers other hits, with LEXCASE_VERIFY=1 it exits 1 naming the file', async () => {
  const d = copy();
  const file = await flipOneVectorByte(d);
  const search = (dir: string) => runCli(['--json', 'search', TARGET.text, '--index', dir, '--method', 'dense', '-k', '3']);
  const top = (r: { stdout: string }) => (JSON.parse(r.stdout) as { hits: Array<{ id: string }> }).hits[0]?.id;
  const intact = await search(idx);
  expect(top(intact)).toBe(TARGET.id);
  const plain = await search(d);
  expect(plain.code, plain.stderr).toBe(0);
  expect(top(plain)).not.toBe(TARGET.id); // silently other results
  process.env.LEXCASE_VERIFY = '1';
  try {
    forgetVerifiedOpens();
    const verified = await runCli(['search', TARGET.text, '--index', d, '--method', 'dense', '-k', '3']);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toBe('');
    expect(verified.stderr).toContain(`${file}: index file is corrupt: sha256 `);
    expect(verified.stderr).toContain(`lexcase index dense ${d} --rebuild`);
  } finally {
    delete process.env.LEXCASE_VERIFY;
  }
});
