/**
 * `lexcase index build … --out IX` over an existing index IX without `--methods`: the rebuild keeps
 * every method IX has, so dense vectors (or lancedb-fts) are never dropped silently. The dense part
 * is rebuilt with the embedder IX recorded (same spec, table and ANN type) when that embedder is
 * available offline — use-lite (bundled; the shipped vectors when they match) or transformers from
 * a local model dir; an embedder that needs an endpoint or a download (openai, a hub model), or a
 * dense table outside IX, is refused before anything is written, naming dense and the two commands
 * that say what to do (re-embed with the embedder flags, or drop it with --methods). With
 * `--methods` the user's list stands; a method IX had and the list leaves out is named on stderr.
 * Without it the rebuild has the default methods too: one IX lacked (qld, after `--methods bm25`) is
 * named on stderr as added.
 * The analyzer likewise: without `--analyzer` the rebuild keeps IX's (noted on stderr when it is not
 * the default), and an `--analyzer` that replaces another one is named on stderr.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { errors } from '../../../core/errors.js';
import { readManifest, type AnalyzerConfig, type Manifest } from '../../../indexer/manifest.js';
import { ANALYZER_DEFAULTS, ANALYZER_KEYS } from '../../../indexer/analyzer-config.js';
import { isRemoteUri, type DenseSection } from '../../../indexer/dense/dense-section.js';
import { recordableSpec } from '../../../indexer/embed/create-embedder.js';
import { PREBUILT_DENSE_SPEC } from '../../../indexer/dense/prebuilt-spec.js';
import type { EmbedderSpec } from '../../../indexer/embed/types.js';
import type { AddDenseOptions } from '../../../indexer/dense/add-dense.js';

export interface RebuildPlan {
  methods: string[];
  /** Dense options from the existing index (its embedder spec, table, ANN type), when dense is kept. */
  dense?: AddDenseOptions;
  /** Whether the shipped prebuilt vectors may stand in (the kept spec is theirs). */
  densePrebuilt?: boolean;
  /** What happened, for stderr. */
  note?: string;
  /** The analyzer of the existing index, kept when no --analyzer is given. */
  analyzer?: AnalyzerConfig;
  /** What happened to the analyzer, for stderr. */
  analyzerNote?: string;
  /** The existing index's dense embedder (provider and id), when it has dense vectors. */
  recordedEmbedder?: { provider: string; id: string };
}

async function existingManifest(out: string): Promise<Manifest | undefined> {
  if (!existsSync(join(out, 'manifest.json'))) return undefined;
  try {
    return await readManifest(out);
  } catch {
    return undefined; // not a readable index: the output-dir rule says what is wrong with it
  }
}

/** Why the recorded embedder cannot embed here without a network, or undefined when it can. */
function notOffline(spec: Partial<EmbedderSpec>): string | undefined {
  if (spec.provider === 'use-lite') return undefined;
  if (spec.provider === 'transformers') {
    if (spec.modelDir && existsSync(join(resolve(spec.modelDir), 'config.json'))) return undefined;
    return spec.modelDir ? `its model dir ${spec.modelDir} is not there` : `its model ${spec.model ?? ''} would be downloaded`;
  }
  return `its embedder (${spec.provider}) needs an endpoint`;
}

/** An analyzer as the `--analyzer` value that gives it: `lucene`, or its settings that differ from the defaults (`default` for none). */
function analyzerSpec(a: Partial<AnalyzerConfig>): string {
  if (a.preset) return a.preset;
  const set = ANALYZER_KEYS.filter((k) => k !== 'preset' && a[k] !== undefined && a[k] !== ANALYZER_DEFAULTS[k]).map((k) => `${k}=${String(a[k])}`);
  return set.length ? set.join(',') : 'default';
}

/**
 * What a rebuild of `out` keeps: its methods (rebuildMethods) and its analyzer, unless `analyzer`
 * (the --analyzer flag, parsed) is given; each change is noted for stderr. Undefined when `out` is
 * not an index (a new build: nothing to keep).
 */
export async function rebuildPlan(
  out: string,
  given: string[] | undefined,
  defaults: string[],
  denseFlags: boolean,
  analyzer?: Partial<AnalyzerConfig>,
): Promise<RebuildPlan | undefined> {
  const m = await existingManifest(out);
  if (!m) return undefined;
  const d = m.dense as unknown as DenseSection | undefined;
  const plan = {
    ...rebuildMethods(m, out, given, defaults, denseFlags),
    ...(d ? { recordedEmbedder: { provider: d.spec?.provider ?? d.embedder, id: d.embedderId } } : {}),
  };
  const had = analyzerSpec(m.analyzer);
  if (analyzer && Object.keys(analyzer).length) {
    const now = analyzerSpec(analyzer);
    return now === had ? plan : { ...plan, analyzerNote: `${out} had the analyzer ${had}; the rebuilt index has ${now} (--analyzer)` };
  }
  if (had === 'default') return plan;
  return { ...plan, analyzer: m.analyzer, analyzerNote: `rebuilding ${out} with the analyzer it has: ${had} (--analyzer … sets another)` };
}

/**
 * The methods (and dense options) of a rebuild of the index `m` at `out`: `given` when --methods was
 * given (with a note naming what it drops), else the union of `defaults` and what the index has.
 */
function rebuildMethods(m: Manifest, out: string, given: string[] | undefined, defaults: string[], denseFlags: boolean): RebuildPlan {
  const had = m.dense && !m.methods.includes('dense') ? [...m.methods, 'dense'] : m.methods;
  if (given) {
    const dropped = had.filter((x) => !given.includes(x) && !(x === 'dense' && denseFlags));
    return {
      methods: given,
      ...(dropped.length
        ? { note: `${out} had ${dropped.join(', ')}; --methods ${given.join(',')} leaves ${dropped.length === 1 ? 'it' : 'them'} out of the rebuilt index` }
        : {}),
    };
  }
  const methods = [...new Set([...defaults, ...had])];
  const d = m.dense as unknown as DenseSection | undefined;
  const extra = methods.filter((x) => !defaults.includes(x));
  // a default method the index lacked is added: said (before, an index built with --methods bm25 came back with qld unannounced)
  const added = defaults.filter((x) => !had.includes(x));
  const addedNote = `${out} had ${had.join(', ')}; the rebuild adds the default ${added.join(', ')} (--methods ${had.join(',')} rebuilds only what it had)`;
  if (!extra.length) return { methods, ...(added.length ? { note: addedNote } : {}) }; // the defaults, nothing beyond them
  if (!methods.includes('dense') || denseFlags || !d)
    return {
      methods,
      note: `rebuilding ${out} with the methods it has: ${methods.join(', ')} (--methods ${defaults.join(',')} drops ${extra.join(', ')})${added.length ? `; ${addedNote}` : ''}`,
    };
  const sparse = methods.filter((x) => x !== 'dense').join(',');
  const spec = { ...d.spec, provider: d.spec?.provider ?? d.embedder } as EmbedderSpec;
  if (isRemoteUri(d.uri) || isAbsolute(d.uri)) {
    throw errors.usage(
      `${out} has the dense method with its vectors outside the index (${d.uri}); a rebuild without --methods keeps every method, but rebuilding them there would change the vectors the current index uses before the new one is in place`,
      `re-embed into a new place: --methods ${methods.join(',')} --dense-uri NEW_URI (with the embedder flags), or drop dense: --methods ${sparse}`,
    );
  }
  const why = notOffline(spec);
  if (why) {
    throw errors.usage(
      `${out} has the dense method (${d.embedderId}); a rebuild without --methods keeps every method the index has, but ${why}, so lexcase will not re-embed on its own`,
      `re-embed: --methods ${methods.join(',')} --embedder ${spec.provider}${(spec.model ?? d.model) ? ` --model ${spec.model ?? d.model}` : ''}${spec.provider === 'openai' ? ' (LEXCASE_EMBED_BASE_URL set)' : ''}; or drop dense: --methods ${sparse}`,
    );
  }
  const recorded = recordableSpec(spec);
  const prebuilt = Object.keys(recorded).every((k) => k in PREBUILT_DENSE_SPEC) && Object.entries(PREBUILT_DENSE_SPEC).every(([k, v]) => recorded[k] === v);
  const dense: AddDenseOptions = {
    embedder: spec,
    uri: d.uri,
    table: d.table,
    annThreshold: d.annThreshold,
    ...(d.ann ? { ann: { type: d.ann.type } } : {}),
  };
  return {
    methods,
    dense,
    densePrebuilt: prebuilt,
    note: `rebuilding ${out} with the methods it has: ${methods.join(', ')}; dense ${prebuilt ? 'from the shipped vectors when they match, else ' : ''}re-embedded with ${d.embedderId} as before (--methods ${sparse} drops it)`,
  };
}
