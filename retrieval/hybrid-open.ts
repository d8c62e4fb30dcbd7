/**
 * openRetriever(dir, 'hybrid', opts): opens each component method of the index dir and fuses them.
 *
 *   methods   any subset of the fusable methods (retrieval/methods.ts); default HYBRID_DEFAULTS (hybrid.ts, tuned on train)
 *   fusion    'rrf' | 'weighted' (min-max-normalised scores); default HYBRID_DEFAULTS
 *   weights   { bm25: 0.3, dense: 0.7 } or 'bm25=0.3,dense=0.7'; default HYBRID_DEFAULTS' weights when methods (any order) and fusion equal the defaults, given or not, else equal
 *             (given weights replace the defaults whole: an unnamed method gets 1 for rrf, 1/n for weighted)
 *   rrfK, depth (hits fetched per component); defaults HYBRID_DEFAULTS
 * Component-specific options (k1, b, mu, embedder, nprobes, …) are passed to the components that read
 * them; one none of the fused methods reads (k1 when bm25 is not among them) is warned about (method-options.ts shareOptions).
 */
import { errors } from '../core/errors.js';
import { log } from '../core/log.js';
import { readManifest } from '../indexer/manifest.js';
import { createHybridRetriever, DEFAULT_HYBRID_METHODS, defaultHybridWeights, HYBRID_DEFAULTS } from './hybrid.js';
import type { FusionMethod } from './fusion.js';
import type { Retriever } from './types.js';
import { textStoreFor } from './hit-text.js';
import { shareOptions } from './method-options.js';

type Open = (dir: string, method: string, opts?: Record<string, unknown>) => Promise<Retriever>;

export function parseWeights(v: unknown): Record<string, number> | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'object') return v as Record<string, number>;
  const out: Record<string, number> = {};
  for (const part of String(v)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [m, w, ...more] = part.split('=');
    // an empty weight (`bm25=`: an unset shell variable) read as 0 and dropped the method; `a=1=2` read as 1
    const n = w === undefined || w.trim() === '' ? Number.NaN : Number(w);
    if (!m?.trim() || more.length || !Number.isFinite(n))
      throw errors.invalidInput('weights', `expected method=weight pairs like bm25=0.3,dense=0.7, got "${part}"`);
    const name = m.trim();
    if (name in out) throw errors.invalidInput('weights', `method "${name}" is given twice (${out[name]} and ${n}); give each method one weight`);
    out[name] = n;
  }
  return out;
}

/** The methods to fuse, each one of `fusable` (the registry's fusable methods, retrieval/methods.ts). */
export function parseMethods(v: unknown, fusable: readonly string[]): string[] {
  const list = Array.isArray(v)
    ? v.map(String)
    : typeof v === 'string' && v
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : DEFAULT_HYBRID_METHODS;
  for (const m of list) if (!fusable.includes(m)) throw errors.invalidInput('hybrid methods', `"${m}" cannot be fused (use ${fusable.join(', ')})`);
  return list;
}

export async function openHybridRetriever(dir: string, opts: Record<string, unknown>, open: Open, fusable: readonly string[]): Promise<Retriever> {
  const methods = parseMethods(opts.methods ?? opts.hybridMethods, fusable);
  const manifest = await readManifest(dir);
  for (const m of methods) if (!manifest.methods.includes(m)) throw errors.methodUnavailable(m, dir, manifest.methods, 'hybrid');
  const fusion = (opts.fusion ?? HYBRID_DEFAULTS.fusion) as FusionMethod;
  const { methods: _m, hybridMethods: _h, fusion: _f, weights: _w, rrfK: _r, depth: _d, ...rest } = opts;
  const optionsOf = shareOptions(rest, methods, 'hybrid');
  const components = await Promise.all(methods.map((m) => open(dir, m, optionsOf(m))));
  const rrfK = opts.rrfK !== undefined ? Number(opts.rrfK) : HYBRID_DEFAULTS.rrfK;
  // weighted fusion reads no rrfK: said, not dropped silently (an --rrf-k sweep under weighted fusion printed one figure)
  if (opts.rrfK !== undefined && fusion !== 'rrf') log.warn(`option "rrfK" (--rrf-k) is ignored: only rrf fusion reads it, not ${fusion}`);
  const depth = opts.depth !== undefined ? Number(opts.depth) : HYBRID_DEFAULTS.depth;
  // The defaults' weights belong to the default methods and fusion, given or not: other methods or another fusion get equal weights.
  const weights = parseWeights(opts.weights) ?? defaultHybridWeights(methods, fusion);
  return createHybridRetriever(components, { fusion, weights, rrfK, depth, docs: () => textStoreFor(dir) });
}
