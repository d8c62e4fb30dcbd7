/**
 * A dense search of an index whose dense table `index dense` is re-embedding in place (another
 * embedder: the table starts over under a new owner) says a writer is at work — naming it, its pid,
 * and what the reader found — instead of "index file is corrupt: the table belongs to index …"
 * with the hint to rebuild the dense index, which is what the running command is doing. Once it
 * has finished, the search answers from the new vectors.
 *
 * In-process, with deterministic fake embedders standing in for an OpenAI-compatible server; the
 * re-embedding one holds its first batch until the reader has looked.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Passage } from '../../corpora/types.js';
import { openDenseRetriever } from '../../retrieval/dense.js';
import { buildIndex } from '../build.js';
import type { Embedder } from '../embed/types.js';
import { addDenseIndex } from './add-dense.js';

const DIM = 16;
const vectorOf =
  (salt: string) =>
  (t: string): Float32Array => {
    const h = createHash('sha256').update(salt).update(t).digest();
    const v = Float32Array.from({ length: DIM }, (_, i) => h[i] - 127.5);
    const n = Math.hypot(...v);
    return v.map((x) => x / n);
  };
const first: Embedder = { id: 'openai:m1', provider: 'openai', model: 'm1', dimension: DIM, embed: async (texts) => texts.map(vectorOf('1')) };

const passages: Passage[] = Array.from({ length: 12 }, (_, i) => ({ id: `p${i}`, text: `apple ${i} text`, source: 'test' }));
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-dense-rewrite-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

async function* stream(ps: Passage[]) {
  yield* ps;
}

it('a dense search while `index dense` re-embeds the index with another embedder is refused naming the writer, not called a corrupt index', async () => {
  const dir = join(tmp, 'idx');
  await buildIndex(stream(passages), { out: dir, methods: ['bm25', 'dense'], workers: 0, dense: { embedder: first, batchSize: 4 } });

  let embedding!: () => void;
  const started = new Promise<void>((r) => (embedding = r));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const second: Embedder = {
    id: 'openai:m2',
    provider: 'openai',
    model: 'm2',
    dimension: DIM,
    embed: async (texts) => {
      embedding();
      await held;
      return texts.map(vectorOf('2'));
    },
  };
  const rewrite = addDenseIndex(dir, { embedder: second, batchSize: 4 });
  await started;
  const during = openDenseRetriever(dir, { embedder: first });
  await expect(during).rejects.toMatchObject({ code: 'INDEX_INCOMPATIBLE' });
  await expect(during).rejects.toThrow(
    new RegExp(`${dir.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is being written by index dense \\(pid ${process.pid}, since `),
  );
  release();
  await rewrite;

  const after = await openDenseRetriever(dir, { embedder: second });
  try {
    expect((await after.search('apple 3 text', { k: 1 }))[0].id).toBe('p3');
  } finally {
    await after.close?.();
  }
}, 120_000);
