/**
 * What identifies where an index's dense vectors came from beyond the provider, model name and
 * settings (vector-spec.ts), recorded at build as the manifest's `dense.source` and by every run in
 * `indexContent.dense.vectors.source` (indexer/manifest.ts):
 *
 *  - openai: the endpoint: scheme, host, port, path, the names of its query parameters and a digest
 *    of their values but those of parameters named like a credential (`?deployment=` counts, an
 *    `?api-key=` does not: core/llm/endpoint.ts `deploymentQueryDigest`, as run configs record the
 *    LLM's `baseUrlQuery`); never a key, a digest of one, or userinfo. Two servers (or deployments)
 *    answering under one model name make other vectors; a rotated key does not. Before 2026-12-01 the
 *    digest covered every query value, the key's too (an unsalted sha256 of `?api-key=…` that every
 *    copy of the index and of its runs carried): `olderVectorSources` gives that form, so an index
 *    that recorded it still resumes and searches without a warning;
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
import { deploymentQueryDigest, redactedEndpoint } from '../../core/llm/endpoint.js';
import { credentialNamed } from '../../core/url-credentials.js';
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

/** `endpoint <scheme://host:port/path>?<query parameter names>`, and the digest `values` of query values where there is one (`leftOut`: the parameters it does not cover). */
function endpointSource(base: string, values: string | undefined, leftOut: string[] = []): string {
  const not = leftOut.length ? `, not of ${leftOut.join(', ')}` : '';
  return `endpoint ${redactedEndpoint(base).endpoint}${values ? ` (query values sha256 ${values}${not})` : ''}`;
}

/** The names of `base`'s query parameters named like a credential (their values are in no digest), sorted. */
function credentialParams(base: string): string[] {
  return URL.canParse(base) ? [...new Set(new URL(base).searchParams.keys())].filter(credentialNamed).sort() : [];
}

/** The source of the vectors `spec` makes, or undefined where the model id says it all. */
export async function vectorSource(spec: Partial<EmbedderSpec>): Promise<string | undefined> {
  if (spec.provider === 'openai') {
    const base = embedBaseURL(spec); // where the requests go (a base URL recorded redacted: the one given again)
    return endpointSource(base, deploymentQueryDigest(base), credentialParams(base));
  }
  if (spec.provider === 'transformers' && spec.modelDir) return `model files sha256 ${await modelFilesDigest(resolve(spec.modelDir), spec.quantized ?? false)}`;
  return undefined;
}

/**
 * The forms of `vectorSource(spec)` an older lexcase recorded for the same vectors, where they differ
 * from today's: an openai base URL whose query holds a parameter named like a credential, whose digest
 * then covered the key's value too. A recorded source equal to one of them is this source (resume,
 * search); [] for every other spec.
 */
export function olderVectorSources(spec: Partial<EmbedderSpec>): string[] {
  if (spec.provider !== 'openai') return [];
  const base = embedBaseURL(spec);
  const before = endpointSource(base, redactedEndpoint(base).queryValues);
  return credentialParams(base).length ? [before] : [];
}
