/**
 * Options plumbing from `openRetriever(dir, 'dense' | 'hybrid', opts)` (CLI flags, tool configs) to
 * DenseRetriever / HybridRetriever. Accepts both typed values and CLI strings.
 */
import { errors } from '../core/errors.js';
import { openDenseRetriever, type DenseOptions } from './dense.js';
import { isEmbedderProvider } from '../indexer/embed/create-embedder.js';
import type { EmbedderSpec } from '../indexer/embed/types.js';

const num = (opts: Record<string, unknown>, name: string): number | undefined => {
  const v = opts[name];
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw errors.invalidInput(name, `expected a non-negative number, got ${JSON.stringify(v)}`);
  return n;
};
const str = (opts: Record<string, unknown>, name: string): string | undefined =>
  typeof opts[name] === 'string' && opts[name] ? (opts[name] as string) : undefined;

export function denseOptionsFrom(opts: Record<string, unknown>): DenseOptions {
  const overrides: Partial<EmbedderSpec> = { workers: 0 }; // one query at a time: no worker pool
  const provider = str(opts, 'embedder');
  if (provider) {
    if (!isEmbedderProvider(provider)) throw errors.usage(`unknown embedder "${provider}"`, 'use one of: use-lite, transformers, openai');
    overrides.provider = provider;
  }
  for (const k of ['model', 'modelDir', 'baseURL', 'apiKey', 'cacheDir'] as const) {
    const v = str(opts, k);
    if (v) overrides[k] = v;
  }
  if (opts.offline !== undefined) overrides.offline = Boolean(opts.offline);
  const d: DenseOptions = { embedderOverrides: overrides };
  const np = num(opts, 'nprobes');
  const rf = num(opts, 'refineFactor');
  const ef = num(opts, 'ef');
  if (ef !== undefined) d.ef = ef;
  if (np !== undefined) d.nprobes = np;
  if (rf !== undefined) d.refineFactor = rf;
  if (opts.exact) d.exact = true;
  const qw = num(opts, 'queryWords');
  if (qw !== undefined) {
    if (!Number.isInteger(qw)) throw errors.invalidInput('queryWords', `expected a whole number of words, got ${JSON.stringify(opts.queryWords)}`);
    d.queryWords = qw;
  }
  return d;
}

export function openDenseFromOptions(dir: string, opts: Record<string, unknown>) {
  return openDenseRetriever(dir, denseOptionsFrom(opts));
}
