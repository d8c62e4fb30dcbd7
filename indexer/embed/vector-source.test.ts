/**
 * An index's dense vectors record where they came from (the manifest's `dense.source`, a run's
 * `indexContent.dense.vectors.source`): the embedding endpoint, redacted as the LLM's is, or a digest of
 * a local model folder's files. The same model name served by another endpoint, or another folder
 * under the same name, is another index content, so a resume or merge over it is refused.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../build.js';
import { addDenseIndex } from '../dense/add-dense.js';
import { indexContent } from '../manifest.js';
import type { Embedder } from './types.js';
import { olderVectorSources, vectorSource } from './vector-source.js';
import { checkResumeSource } from '../dense/resume-source.js';
import { differingQuerySource } from '../../retrieval/dense-query-source.js';
import { log } from '../../core/log.js';
import { manifestSummary } from '../../src/cli/commands/index-cmd.js';

const tmp = mkdtempSync(join(tmpdir(), 'lexcase-vector-source-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const DIM = 8;
const vectorOf = (t: string): Float32Array => {
  const h = createHash('sha256').update(t).digest();
  const v = Float32Array.from({ length: DIM }, (_, i) => h[i] - 127.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
/** What an OpenAI-compatible server answering "e5-small" returns (a stand-in: no HTTP). */
const e5: Embedder = { id: 'openai:e5-small', provider: 'openai', model: 'e5-small', dimension: DIM, embed: async (texts) => texts.map(vectorOf) };
const PASSAGES: Passage[] = Array.from({ length: 6 }, (_, i) => ({ id: `fre${600 + i}`, text: `Rule ${600 + i} witness impeachment ${i}`, source: 'test' }));

async function indexEmbeddedBy(name: string, baseURL: string) {
  const dir = join(tmp, name);
  async function* stream() {
    yield* PASSAGES;
  }
  await buildIndex(stream(), { out: dir, corpusName: 'fre', methods: ['bm25'], workers: 0 });
  return addDenseIndex(dir, { embedder: e5, spec: { provider: 'openai', model: 'e5-small', baseURL, apiKey: 'sk-live-123' } });
}

/** A local transformers model folder: config, tokenizer and fp32 onnx weights. */
function modelFolder(dir: string, weights: string) {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), '{"model_type":"bert","hidden_size":384}');
  writeFileSync(join(dir, 'tokenizer.json'), '{"model":{"type":"WordPiece"}}');
  writeFileSync(join(dir, 'onnx', 'model.onnx'), weights);
  return dir;
}

describe('the source of an index dense vectors', () => {
  it('records the embedding endpoint without its credentials; the same model name from another endpoint is another index content', async () => {
    const a = await indexEmbeddedBy('a', 'http://embedder:s3cret@gpu-a.lab:8080/v1/?api-key=XYZ');
    const b = await indexEmbeddedBy('b', 'http://gpu-b.lab:8080/v1');
    const source = (a.dense as { source?: string }).source!;
    // the key's parameter is named, its value in no digest (before: "(query values sha256 <sha256 of XYZ>)")
    expect(source).toBe('endpoint http://gpu-a.lab:8080/v1?api-key');
    // `index info` shows it, as a search's "another source" warning says
    expect(manifestSummary('a', a, { total: 0, parts: {} })).toContain('\n  vectors   from endpoint http://gpu-a.lab:8080/v1?api-key\n');
    for (const secret of ['s3cret', 'embedder', 'XYZ', 'sk-live-123']) expect(source).not.toContain(secret);
    const ca = indexContent(a);
    expect((ca.dense as { vectors: Record<string, unknown> }).vectors.source).toBe(source);
    // before: both recorded only "openai e5-small, dimension 8" and the vector settings: equal
    expect((indexContent(b).dense as { vectors: Record<string, unknown> }).vectors.source).toBe('endpoint http://gpu-b.lab:8080/v1');
    expect(indexContent(b)).not.toEqual(ca);
  });

  it('holds no digest of a key in the query: a rotated key is the same source, another ?deployment= is not; the older form still matches', async () => {
    const at = (q: string) => vectorSource({ provider: 'openai', baseURL: `https://gw.example.org/openai/v1?${q}` });
    const d1 = await at('deployment=emb-small&api-key=K-1111111111');
    expect(d1).toMatch(/^endpoint https:\/\/gw\.example\.org\/openai\/v1\?api-key&deployment \(query values sha256 [0-9a-f]{32}, not of api-key\)$/);
    expect(await at('api-key=K-2222222222&deployment=emb-small')).toBe(d1);
    expect(await at('deployment=emb-large&api-key=K-1111111111')).not.toBe(d1);
    // what lexcase recorded before: a sha256 over every query value, the key's too, which a copy of the manifest lets anyone guess offline
    const keyed = createHash('sha256')
      .update(
        JSON.stringify([
          ['api-key', ['K-1111111111']],
          ['deployment', ['emb-small']],
        ]),
      )
      .digest('hex')
      .slice(0, 32);
    expect(d1).not.toContain(keyed);
    const older = `endpoint https://gw.example.org/openai/v1?api-key&deployment (query values sha256 ${keyed})`;
    const spec = { provider: 'openai' as const, baseURL: 'https://gw.example.org/openai/v1?deployment=emb-small&api-key=K-1111111111' };
    expect(olderVectorSources(spec)).toEqual([older]);
    // an index that recorded the older form is searched without a warning, and resumed
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    expect(await differingQuerySource(older, spec, '/idx')).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
    expect(() => checkResumeSource({ source: older }, d1, { where: 'w', embedderId: 'openai:e5', stateFile: 's' }, olderVectorSources(spec))).not.toThrow();
    // `index info` shows it masked, says so and how to rewrite it; --json's manifest holds it masked
    const built = await indexEmbeddedBy('gw', spec.baseURL);
    const info = manifestSummary('idx', { ...built, dense: { ...built.dense!, source: older } }, { total: 0, parts: {} });
    expect(info).not.toContain(keyed);
    expect(info).toContain(
      "\n  vectors   from endpoint https://gw.example.org/openai/v1?api-key&deployment (query values sha256 withheld: an older lexcase's digest, which covered the value of api-key too)\n",
    );
    expect(info).toContain(
      "\n  note      manifest.json holds an older lexcase's unsalted sha256 over the embedding endpoint's query values, the key's value included",
    );
    expect(info).toContain('Rewrite it: lexcase index dense idx --embedder openai, with the endpoint it was built with (LEXCASE_EMBED_BASE_URL)');
    expect(manifestSummary('idx', built, { total: 0, parts: {} })).not.toContain('note      ');
    // a URL without a credential parameter records what it always did
    expect(olderVectorSources({ provider: 'openai', baseURL: 'http://gpu-b.lab:8080/v1?deployment=x' })).toEqual([]);
  });

  it('records a digest of a local model folder: the same files elsewhere are the same vectors, other weights under the same name are not', async () => {
    const one = modelFolder(join(tmp, 'm1', 'bge-small-en-v1.5'), 'weights-1');
    const copy = join(tmp, 'm2', 'bge-small-en-v1.5');
    cpSync(one, copy, { recursive: true });
    const other = modelFolder(join(tmp, 'm3', 'bge-small-en-v1.5'), 'weights-2');
    const src = (modelDir: string) => vectorSource({ provider: 'transformers', modelDir });
    expect(await src(one)).toMatch(/^model files sha256 [0-9a-f]{64}$/);
    expect(await src(copy)).toBe(await src(one));
    expect(await src(other)).not.toBe(await src(one));
    expect(await src(one)).not.toContain(tmp);
    expect(await vectorSource({ provider: 'use-lite' })).toBeUndefined();
  });
});
