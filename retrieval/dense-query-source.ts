/**
 * Queries embedded by another source than the index's passages. An index records where its dense
 * vectors came from beyond the model id (manifest `dense.source`: the embedding endpoint, redacted,
 * or a digest of a local model folder's files; indexer/embed/vector-source.ts). A search embeds its
 * queries with the spec it opens the index with — the recorded base URL, LEXCASE_EMBED_BASE_URL where
 * none is recorded or it is recorded redacted, a caller's override — so the two can differ under
 * the same model name (another server, another folder): cosines between vectors of two sources.
 * The search goes on (a server may have moved without changing its model), with a warning and the
 * query side's source in the retriever's config, which eval runs record.
 */
import { log } from '../core/log.js';
import { olderVectorSources, vectorSource } from '../indexer/embed/vector-source.js';
import type { Embedder, EmbedderSpec } from '../indexer/embed/types.js';
import type { Retriever } from './types.js';

/** This process's query-vector source where it differs from the index's recorded one (warned), else undefined. */
export async function differingQuerySource(recorded: string | undefined, spec: Partial<EmbedderSpec>, dir: string): Promise<string | undefined> {
  if (recorded === undefined) return undefined; // an older index, or one whose model id says it all
  const now = (await vectorSource(spec)) ?? 'the model id alone';
  if (now === recorded || olderVectorSources(spec).includes(recorded)) return undefined; // the same endpoint, recorded as an older lexcase did
  log.warn(
    `dense index ${dir}: its passage vectors came from ${recorded}, this search embeds queries by ${now}; scores between vectors of two sources mean little. ` +
      'Give the endpoint or model folder the index was built with (LEXCASE_EMBED_BASE_URL, --model-dir; `lexcase index info` shows it), or rebuild the dense index.',
  );
  return now;
}

/**
 * The model the endpoint's replies name for this process's queries, where the index recorded the
 * names its passages' replies gave (dense section `servedModels`) and this one is not among them
 * (warned), else undefined. The endpoint and the model asked for are the same, so differingQuerySource
 * sees nothing, yet a server that embeds with the model it has loaded (LM Studio, a proxy) has
 * another one loaded now. Known from the dimension probe the openai embedder makes as it opens; an
 * embedder made with `dimensions` given makes none, and is not compared.
 */
export function differingServedModel(recorded: readonly string[] | undefined, embedder: Embedder, dir: string): string | undefined {
  if (!recorded?.length) return undefined; // an older index, or replies that named no model
  const now = embedder.servedModels?.() ?? [];
  const other = now.find((m) => !recorded.includes(m));
  if (other === undefined) return undefined;
  const theirs = recorded.map((m) => `"${m}"`).join(', ');
  log.warn(
    `dense index ${dir}: its passage vectors came from replies naming model ${theirs}, this search's embedding replies name "${other}" (the same endpoint and model asked for); scores between vectors of two models mean little. ` +
      'Load the model the index was built with on the server, or rebuild the dense index.',
  );
  return `the model the endpoint's replies name "${other}" (its passages' replies named ${theirs})`;
}

/**
 * What a figure or run over `r` carries when its queries were embedded by another source than the index's passages
 * (dense, or hybrid's dense component): the sentence an eval report's warnings, `search --json` and a `--topics` run's
 * summary hold beside the figures, as stderr's warning above is gone once the output is saved. Undefined otherwise.
 */
export function querySourceNote(r: Retriever): string | undefined {
  const source = querySourceOf(r.config);
  return source === undefined ? undefined : querySourceText(source);
}

/** "queries were embedded by endpoint http://…, not by …": the one sentence every surface carries. */
export function querySourceText(source: string): string {
  return `queries were embedded by ${source}, not by the endpoint or model files the index's passage vectors came from (\`lexcase index info\` shows them): scores between vectors of two sources mean little`;
}

/** The query side's source a retriever's config records (dense's `querySource`, hybrid's dense component's), else undefined. */
function querySourceOf(config: Record<string, unknown> | undefined): string | undefined {
  const c = config as { querySource?: unknown; components?: Record<string, { querySource?: unknown }> } | undefined;
  const source = c?.querySource ?? c?.components?.dense?.querySource;
  return typeof source === 'string' ? source : undefined;
}

/**
 * An agent run's config field (config.json `denseQuerySource`, by method) where its searches embed queries by another
 * source than the index's passages, as denseQueryWordLimit records the word limit: report.md says it (eval/report
 * sections/dense-query-source.ts), and a resume whose query side differs is a config difference. Empty otherwise.
 */
export function denseQuerySource(retrievers: Partial<Record<string, { config?: Record<string, unknown> }>>): {
  denseQuerySource?: Record<string, string>;
} {
  const differing = Object.entries(retrievers)
    .map(([m, r]) => [m, querySourceOf(r?.config)] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return differing.length ? { denseQuerySource: Object.fromEntries(differing) } : {};
}
