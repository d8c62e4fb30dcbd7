/**
 * `transformers` provider: @xenova/transformers feature-extraction (ONNX Runtime on CPU), mean
 * pooling over the attention mask, then L2 normalisation. Default model Xenova/bge-small-en-v1.5
 * (384-dim, the model CASE used). Any other transformers.js-compatible model works by hub id, or
 * from a local copy with `modelDir` (localModelPath = its parent, model id = its folder name).
 *
 * Offline: with LEXCASE_OFFLINE=1 or a modelDir, remote downloads are disabled and a missing model
 * is an EMBEDDER_UNAVAILABLE error that says how to fetch it. @xenova/transformers itself is an
 * optional dependency, imported on first use (load-transformers.ts): when it is missing the error
 * says to `npm install @xenova/transformers`.
 *
 * Download: from the hub (or a mirror laid out like it: HF_ENDPOINT=http://host/ sets transformers.js
 * `env.remoteHost`), into `cacheDir`, with one progress line per file on stderr; a download that is
 * cut off fails with an EMBEDDER_UNAVAILABLE error naming the file, and nothing of it is cached
 * (transformers.js writes a cache file only after the whole body arrived).
 */
import { access } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { inBatches, l2normalize, truncateWords } from './batching.js';
import { loadTransformers } from './load-transformers.js';
import { prefixesFor, withPrefix } from './prefixes.js';
import type { EmbedKind, EmbedOptions, Embedder, EmbedderSpec } from './types.js';

export const DEFAULT_TRANSFORMERS_MODEL = 'Xenova/bge-small-en-v1.5';

type Extractor = (texts: string[], o: { pooling: 'mean'; normalize: boolean }) => Promise<{ dims: number[]; data: Float32Array }>;

function howToGet(model: string): string {
  return (
    `download it on a machine with network, e.g. \`huggingface-cli download ${model} --local-dir ./models/${basename(model)}\` ` +
    `(or \`git lfs install && git clone https://huggingface.co/${model}\`), copy the folder (config.json, tokenizer.json, ` +
    `tokenizer_config.json, onnx/model.onnx) here and pass --model-dir ./models/${basename(model)}; ` +
    'or unset LEXCASE_OFFLINE to let transformers.js download and cache it on first use'
  );
}

export async function createTransformersEmbedder(spec: EmbedderSpec): Promise<Embedder> {
  const mod = await loadTransformers();
  const env = mod.env;
  const modelDir = spec.modelDir ? resolve(spec.modelDir) : undefined;
  const modelId = modelDir ? basename(modelDir) : (spec.model ?? DEFAULT_TRANSFORMERS_MODEL);
  const modelName = spec.model ?? modelId;
  const offline = spec.offline ?? (process.env.LEXCASE_OFFLINE === '1' || modelDir !== undefined);
  const quantized = spec.quantized ?? false;

  env.allowRemoteModels = !offline;
  env.allowLocalModels = true;
  if (modelDir) env.localModelPath = dirname(modelDir) + '/';
  if (spec.cacheDir) env.cacheDir = spec.cacheDir;
  const hub = process.env.HF_ENDPOINT;
  if (hub) env.remoteHost = hub.endsWith('/') ? hub : `${hub}/`;
  let current = '';
  const loaded = new Map<string, number>();
  const progress_callback = (p: { status: string; file?: string; loaded?: number }) => {
    if (!p.file) return;
    if (p.status === 'download') current = p.file;
    if (p.status === 'progress' && p.loaded !== undefined) loaded.set(p.file, p.loaded);
    if (p.status === 'done' && !modelDir)
      log.info(
        `transformers: ${modelName}/${p.file} ready (${((loaded.get(p.file) ?? 0) / 1024).toFixed(1)} kB; from ${env.remoteHost} or the cache ${env.cacheDir})`,
      );
  };

  if (modelDir) {
    const onnx = join(modelDir, 'onnx', quantized ? 'model_quantized.onnx' : 'model.onnx');
    for (const f of [join(modelDir, 'config.json'), join(modelDir, 'tokenizer.json'), onnx]) {
      try {
        await access(f);
      } catch {
        throw errors.embedderUnavailable(`transformers model folder ${modelDir} is incomplete: ${f} is missing`, howToGet(modelName));
      }
    }
  }

  let extractor: Extractor;
  try {
    extractor = (await mod.pipeline('feature-extraction', modelId, { quantized, cache_dir: spec.cacheDir, progress_callback })) as unknown as Extractor;
  } catch (e) {
    const msg = (e as Error).message ?? String(e);
    const cut = /terminated|other side closed|ECONNRESET|content-length|premature/i.test(`${msg} ${String((e as { cause?: unknown }).cause ?? '')}`);
    const where = offline
      ? ' (offline: remote downloads are disabled)'
      : cut
        ? ` (the download of ${current || 'a model file'} from ${env.remoteHost} was cut off; nothing of it was cached, run again to retry)`
        : '';
    throw errors.embedderUnavailable(`transformers model "${modelName}" could not be loaded${where}: ${msg.split('\n')[0]}`, howToGet(modelName));
  }

  const prefixes = {
    ...prefixesFor(modelName),
    ...(spec.queryPrefix !== undefined ? { query: spec.queryPrefix } : {}),
    ...(spec.passagePrefix !== undefined ? { passage: spec.passagePrefix } : {}),
  };
  const batchSize = spec.batchSize ?? 32;

  const run = async (batch: string[]): Promise<Float32Array[]> => {
    const t = await extractor(batch, { pooling: 'mean', normalize: true });
    const [n, d] = t.dims;
    const out: Float32Array[] = [];
    for (let i = 0; i < n; i++) out.push(l2normalize(t.data.slice(i * d, (i + 1) * d)));
    return out;
  };
  // The pipeline cuts every text at its tokenizer's model_max_length (truncation: true), silently:
  // known here, so a build can count the passages it reads only in part, as for use-lite, and a
  // search the queries (retrieval/dense-query-cut.ts queryReadInPart).
  const tok = (extractor as unknown as { tokenizer?: { model_max_length?: unknown; encode?: (t: string) => number[] } }).tokenizer;
  const limit = tok?.model_max_length;
  const tokenLimit =
    typeof limit === 'number' && Number.isInteger(limit) && limit > 0 && limit < 1_000_000 && typeof tok?.encode === 'function'
      ? {
          maxTokens: limit,
          readsInPart: (text: string, kind: EmbedKind = 'passage') =>
            tok.encode!(withPrefix([truncateWords(text, spec.maxWords)], kind, prefixes)[0]).length > limit,
        }
      : undefined;
  // Probe the dimension once with a one-word input.
  const dimension = (await run(['dimension']))[0].length;
  log.debug(`transformers embedder ${modelName}: dim ${dimension}, quantized ${quantized}, offline ${offline}`);

  return {
    id: `transformers:${modelName}`,
    provider: 'transformers',
    model: modelName,
    dimension,
    ...(tokenLimit ? { tokenLimit } : {}),
    embed(texts: string[], opts: EmbedOptions) {
      const prepared = withPrefix(
        texts.map((t) => truncateWords(t, spec.maxWords)),
        opts.kind,
        prefixes,
      );
      return inBatches(prepared, batchSize, opts, run);
    },
  };
}
