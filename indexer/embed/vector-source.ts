/**
 * What identifies where an index's dense vectors came from beyond the provider, model name and
 * settings (vector-spec.ts), recorded at build as the manifest's `dense.source` and by every run in
 * `indexContent.dense.vectors.source` (indexer/manifest.ts):
 *
 *  - openai: the endpoint, as the LLM's is keyed (core/llm/endpoint.ts `redactedEndpoint`: scheme,
 *    host, port, path, query parameter names and a digest of their values; never a key or userinfo):
 *    two servers answering under one model name make other vectors;
 *  - transformers from a local folder (`modelDir`): a sha256 over the model files the loader reads
 *    (the folder's top-level .json/.txt files and the onnx weights used), never the path, which
 *    differs per machine: another folder under the same name is other vectors, a copy of the same
 *    one on another machine the same;
 *  - use-lite (bundled) and transformers from the hub: none beyond the model id.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { redactedEndpoint } from '../../core/llm/endpoint.js';
import { embedBaseURL } from './base-url.js';
import type { EmbedderSpec } from './types.js';

async function fileSha256(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** sha256 (hex) over the model files of a local transformers model folder: each file's name and sha256, in name order. */
export async function modelFilesDigest(modelDir: string, quantized = false): Promise<string> {
  const top = (await readdir(modelDir, { withFileTypes: true })).filter((e) => e.isFile() && /\.(json|txt)$/.test(e.name)).map((e) => e.name);
  const files = [...top, join('onnx', quantized ? 'model_quantized.onnx' : 'model.onnx')].sort();
  const h = createHash('sha256');
  for (const f of files) h.update(`${f}\0${await fileSha256(join(modelDir, f))}\n`);
  return h.digest('hex');
}

/** The source of the vectors `spec` makes, or undefined where the model id says it all. */
export async function vectorSource(spec: Partial<EmbedderSpec>): Promise<string | undefined> {
  if (spec.provider === 'openai') {
    const e = redactedEndpoint(embedBaseURL(spec)); // where the requests go (a base URL recorded redacted: the one given again)
    return `endpoint ${e.endpoint}${e.queryValues ? ` (query values sha256 ${e.queryValues})` : ''}`;
  }
  if (spec.provider === 'transformers' && spec.modelDir) return `model files sha256 ${await modelFilesDigest(resolve(spec.modelDir), spec.quantized ?? false)}`;
  return undefined;
}
