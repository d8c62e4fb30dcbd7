/**
 * A dense build interrupted midway is resumed only with vectors from the same source: another
 * local model folder under the same model name (tiny-bert with another config.json) is refused with
 * one error naming both sources, the partial table kept; the folder it was begun with resumes it; a
 * state file from before sources were recorded resumes with a warning.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../core/log.js';
import type { Passage } from '../../corpora/types.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../tests/support/bundled-data.js';
import { createEmbedder } from '../embed/create-embedder.js';
import type { Embedder, EmbedderSpec } from '../embed/types.js';
import { modelFilesDigest } from '../embed/vector-source.js';
import { buildIndex } from '../build.js';
import { readManifest } from '../manifest.js';
import { addDenseIndex } from './add-dense.js';
import { connectDense, openDenseTable } from './lance-table.js';
import { counting } from './test-support/counting-embedder.js';

const modelDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'tests/fixtures/tiny-embedder/tiny-bert');
const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(0, 40)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));

let tmp: string;
let tiny: Embedder;
/** A copy of tiny-bert, same name, its config.json changed: another model folder. */
let otherDir: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-dense-source-'));
  tiny = await createEmbedder({ provider: 'transformers', modelDir });
  otherDir = join(tmp, 'other', 'tiny-bert');
  await cp(modelDir, otherDir, { recursive: true });
  const cfg = JSON.parse(await readFile(join(otherDir, 'config.json'), 'utf8'));
  await writeFile(join(otherDir, 'config.json'), JSON.stringify({ ...cfg, layer_norm_eps: 1e-6 }));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** An index whose dense build, with the model folder `dir`, was interrupted after 20 of 40 passages. */
async function interrupted(name: string, dir: string): Promise<string> {
  const out = join(tmp, name);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 },
  );
  const ac = new AbortController();
  const spec: EmbedderSpec = { provider: 'transformers', modelDir: dir };
  await expect(
    addDenseIndex(out, { embedder: tiny, spec, batchSize: 10, signal: ac.signal, onProgress: (n) => n >= 20 && ac.abort(new Error('killed midway')) }),
  ).rejects.toThrow('killed midway');
  return out;
}

const rows = async (out: string) => (await openDenseTable(await connectDense(join(out, 'dense')), 'passages', out)).countRows();

describe('resuming a partial dense table', () => {
  it('refuses another model folder under the same model name, keeping the partial table; the same folder resumes it', async () => {
    const out = await interrupted('other-folder', modelDir);
    const other = counting(tiny);
    const err = await addDenseIndex(out, { embedder: other, spec: { provider: 'transformers', modelDir: otherDir }, batchSize: 10 }).catch((e) => e);
    expect(err).toMatchObject({ code: 'OUT_DIR_REFUSED' });
    expect(err.message).toContain(`its vectors of transformers:tiny-bert came from model files sha256 ${await modelFilesDigest(modelDir)}`);
    expect(err.message).toContain(`this build's would come from model files sha256 ${await modelFilesDigest(otherDir)}`);
    expect(err.details.hint).toMatch(/resume with the endpoint or model folder it was begun with; or, .* delete .*dense-build\.json/);
    expect(other.embedded).toBe(0);
    expect(await rows(out)).toBe(20);
    expect((await readManifest(out)).methods).not.toContain('dense');

    const same = counting(tiny);
    const m = await addDenseIndex(out, { embedder: same, spec: { provider: 'transformers', modelDir }, batchSize: 10 });
    expect(same.embedded).toBe(20);
    expect(m.dense).toMatchObject({ rows: 40, buildResumedAt: 20, source: `model files sha256 ${await modelFilesDigest(modelDir)}` });
  });

  it('resumes a partial table begun before sources were recorded, with a warning saying so', async () => {
    const out = await interrupted('unrecorded', modelDir);
    const state = join(out, 'dense-build.json');
    const { source: _s, ...old } = JSON.parse(await readFile(state, 'utf8'));
    await writeFile(state, JSON.stringify(old));
    const warn = vi.spyOn(log, 'warn');
    try {
      const again = counting(tiny);
      await addDenseIndex(out, { embedder: again, spec: { provider: 'transformers', modelDir: otherDir }, batchSize: 10 });
      expect(again.embedded).toBe(20);
      expect(warn.mock.calls.flat().join('\n')).toMatch(/was begun before lexcase recorded where vectors come from; resuming it with model files sha256 /);
    } finally {
      warn.mockRestore();
    }
  });
});
