/**
 * `index verify` on a dense index whose LanceDB data files were damaged after the build. The owner,
 * row count and ids (what verify read of the table) are unchanged by a vector's bytes flipped in a
 * `.lance` data file, so verify said "integrity ok" while dense search ranked from the damaged
 * vectors. Now the build records each file of the table (size, sha256: table-files.ts) in the
 * manifest's dense section and verify checks them, naming each damaged file; an index whose manifest
 * records none (an older lexcase's) verifies as before and says the dense table is not covered.
 * In-process, with a deterministic fake embedder.
 */
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Passage } from '../../corpora/types.js';
import { openDenseRetriever } from '../../retrieval/dense.js';
import { verifyIndexDir, verifyJson, type IndexVerifyReport } from '../../src/cli/commands/index-verify.js';
import { buildIndex } from '../build.js';
import type { Embedder } from '../embed/types.js';
import { readManifest, writeManifest } from '../manifest.js';
import { addDenseIndex } from './add-dense.js';
import type { DenseSection } from './dense-section.js';

const DIM = 16;
const vectorOf = (t: string): Float32Array => {
  const h = createHash('sha256').update(t).digest();
  const v = Float32Array.from({ length: DIM }, (_, i) => h[i] - 127.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const fake: Embedder = { id: 'openai:m', provider: 'openai', model: 'm', dimension: DIM, embed: async (texts) => texts.map(vectorOf) };
const PASSAGES: Passage[] = Array.from({ length: 40 }, (_, i) => ({
  id: `p${i}`,
  text: `The deed ${i} was delivered to the buyer and recorded under the recording act.`,
  source: 'test',
}));

let tmp: string;
let idx: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-verify-dense-files-'));
  idx = join(tmp, 'idx');
  async function* stream() {
    yield* PASSAGES;
  }
  await buildIndex(stream(), { out: idx, corpusName: 'deeds', methods: ['bm25', 'dense'], workers: 0, dense: { embedder: fake, batchSize: 16 } });
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

const copy = (name: string): string => {
  const d = join(tmp, name);
  cpSync(idx, d, { recursive: true });
  return d;
};
const dataFiles = (d: string): string[] => {
  const data = join(d, 'dense', 'passages.lance', 'data');
  return readdirSync(data).map((f) => join(data, f));
};
/** Each passage's own text: is it still its nearest neighbour at cosine 1? */
async function selfHits(d: string): Promise<number> {
  const r = await openDenseRetriever(d, { embedder: fake });
  try {
    let n = 0;
    for (const p of PASSAGES) {
      const [top] = await r.search(p.text, { k: 1 });
      if (top?.id === p.id && Math.abs(top.score - 1) < 1e-5) n++;
    }
    return n;
  } finally {
    await r.close();
  }
}

it("records every file of the dense table in the manifest and verifies them: 'dense table: sha256 of its N files'", async () => {
  const dense = (await readManifest(idx)).dense as unknown as DenseSection;
  const files = Object.keys(dense.files ?? {});
  expect(files.filter((f) => f.startsWith('data/') && f.endsWith('.lance')).length).toBeGreaterThan(0);
  expect(files).toContain('_versions/latest_version_hint.json');
  const r = await verifyIndexDir(idx);
  expect(r.problems).toEqual([]);
  expect(r.dense).toEqual({ covered: true, files: files.length, bytes: expect.any(Number) });
  expect(verifyJson(r).dense).toMatchObject({ covered: true, files: files.length });
});

it("a vector's bytes flipped in a .lance data file: verify names the file (before: integrity ok, dense search answered from the damaged vectors)", async () => {
  const d = copy('flipped');
  // the sign of one component of passage p7's vector, wherever a data file holds it
  const vector = Buffer.from(vectorOf(PASSAGES[7].text).buffer);
  let flipped = 0;
  for (const f of dataFiles(d)) {
    const bytes = readFileSync(f);
    for (let at = bytes.indexOf(vector); at >= 0; at = bytes.indexOf(vector, at + 1), flipped++) bytes[at + 3] ^= 0x80;
    writeFileSync(f, bytes);
  }
  expect(flipped).toBeGreaterThan(0);
  expect(await selfHits(idx)).toBe(PASSAGES.length);
  expect(await selfHits(d)).toBeLessThan(PASSAGES.length); // the damage is in what dense search reads
  let report: IndexVerifyReport | undefined;
  await expect(verifyIndexDir(d, (x) => (report = x))).rejects.toMatchObject({ code: 'INDEX_CORRUPT', message: expect.stringContaining('.lance') });
  expect(report?.problems.length).toBe(flipped);
  for (const p of report?.problems ?? []) {
    expect(p.file).toMatch(/dense\/passages\.lance\/data\/[^/]+\.lance$/);
    expect(p.message).toMatch(/^sha256 [0-9a-f]{12}… does not match the manifest's [0-9a-f]{12}…$/);
    expect(p.hint).toBe(`rebuild the dense part: lexcase index dense ${d} --rebuild`);
  }
  // `index dense` again on the damaged finished table refuses to keep it (it would record the damaged files as the build's)
  await expect(addDenseIndex(d, { embedder: fake })).rejects.toMatchObject({
    code: 'INDEX_CORRUPT',
    message: expect.stringContaining('not keeping a damaged dense table'),
  });
  await expect(verifyIndexDir(d)).rejects.toMatchObject({ code: 'INDEX_CORRUPT' });
});

it('a data file of the table deleted or cut short: verify names it as missing or of another size', async () => {
  const d = copy('deleted');
  const [first, ...rest] = dataFiles(d).sort((a, b) => statSync(a).size - statSync(b).size);
  rmSync(first);
  for (const f of rest.slice(0, 1)) writeFileSync(f, readFileSync(f).subarray(0, 100));
  let report: IndexVerifyReport | undefined;
  await expect(verifyIndexDir(d, (x) => (report = x))).rejects.toMatchObject({ code: 'INDEX_CORRUPT' });
  const messages = (report?.problems ?? []).map((p) => `${p.file === first ? 'first' : p.file === rest[0] ? 'cut' : p.file}: ${p.message}`);
  expect(messages).toContain('first: dense table file is missing');
  expect(messages).toContain(`cut: expected ${statSync(join(idx, rest[0].slice(d.length))).size} bytes, found 100`);
});

it('`index dense` again on a sound finished index keeps its table, and verify still passes', async () => {
  const d = copy('rerun');
  await addDenseIndex(d, { embedder: fake });
  expect((await verifyIndexDir(d)).problems).toEqual([]);
});

it("an index whose manifest records no dense files (an older lexcase's) verifies as before and says the dense table is not covered", async () => {
  const d = copy('older');
  const m = await readManifest(d);
  const { files: _files, ...dense } = m.dense as unknown as DenseSection;
  await writeManifest(d, { ...m, dense: dense as unknown as typeof m.dense });
  const r = await verifyIndexDir(d);
  expect(r.problems).toEqual([]);
  const message = `dense table not covered by this index's manifest (built by an older lexcase): its files were not hashed (lexcase index dense ${d} --rebuild records them)`;
  expect(r.dense).toEqual({ covered: false, message });
  expect(verifyJson(r).dense).toEqual({ covered: false, message });
});
