/**
 * What `lexcase merge` compares across shards and what it records of each (merge.ts).
 *
 *  - `mergeComparable(config)`: a shard's run config as a merge compares it — what a resume
 *    compares (eval/resume-config.ts: retries, timeouts, concurrency, the cache dir and the key may
 *    differ, they change no result), without the shard it records, and with the index compared by
 *    what it holds (`indexContent`) rather than by its path where that is recorded: the documented
 *    multi-host workflow runs each shard in its own working dir, so each records its own absolute
 *    index path. Before, `merge` refused such shards (`field "index" differs`), and shards that only
 *    set another LEXCASE_CACHE_DIR or LEXCASE_LLM_TIMEOUT_MS.
 *  - `shardProvenance(file, merged)`: one shard's entry of the merged config.json's `mergedFrom` —
 *    its code (git sha, lexcase version), when it started, its resumes, and its own settings where
 *    they differ from the merged config's (`settings`: the operational ones and the index path).
 *  - `mergedGitShas(entries)`: the git shas the shards ran, each with its shards and items (the
 *    merged provenance's `gitShas` when there are several; report.md's "git sha: mixed: …").
 *  - `mixedCodeWarning(runId, entries)`: the warning when the shards ran different code (git shas).
 */
import type { Provenance } from '../provenance.js';
import type { RunConfigFile, ShardProvenance } from '../run-config-file.js';

export type { ShardProvenance };
import { operationalChanges, resultConfig, stableJson } from '../resume-config.js';
import { withCanonicalSystem } from '../systems.js';

/** A shard run's config without the shard it records (each shard's own: eval/reproduce/shard.ts). */
export function unsharded(config: unknown): Record<string, unknown> {
  const { shard: _shard, ...rest } = (config ?? {}) as Record<string, unknown>;
  return rest;
}

export function mergeComparable(config: unknown): Record<string, unknown> {
  const own = unsharded(config);
  const c = resultConfig(withCanonicalSystem(own));
  if (c.indexContent !== undefined && typeof c.index === 'string') delete c.index;
  // The endpoint's query values (a deployment chosen by `?deployment=`; credential-named parameters
  // are not in the digest): a resume may warn and go on, but shards that asked two deployments make
  // one table of two models' items, so merge compares it as it compares the base URL.
  const query = (own.model as { baseUrlQuery?: unknown } | undefined)?.baseUrlQuery;
  if (query !== undefined && c.model && typeof c.model === 'object') c.model = { ...(c.model as object), baseUrlQuery: query };
  return c;
}

export function shardProvenance(file: Partial<RunConfigFile>, merged: Record<string, unknown>): ShardProvenance {
  const own = unsharded(file.config);
  const differs: Record<string, unknown> = Object.fromEntries(Object.entries(operationalChanges(merged, own)).map(([k, v]) => [k, v.to]));
  if (stableJson(own.index) !== stableJson(merged.index)) differs.index = own.index ?? null;
  // the same data files (by sha256: mergeComparable) read from another place on this shard's host
  if (stableJson(own.dataFiles) !== stableJson(merged.dataFiles)) differs.dataFiles = own.dataFiles ?? null;
  return {
    gitSha: file.provenance?.gitSha ?? null,
    lexcaseVersion: file.provenance?.lexcaseVersion ?? null,
    createdAt: file.provenance?.createdAt ?? null,
    resumes: file.resumes ?? [],
    ...(Object.keys(differs).length ? { settings: differs } : {}),
  };
}

type ShardEntry = ShardProvenance & { shard: { index: number; count: number }; items: number };

/**
 * The code each part of a merged run ran: one entry per git sha, with its shards and their items,
 * in shard order (the merged provenance's `gitShas`, written only when there are two or more: the
 * top-level `gitSha`, shard 1's, then names only part of the run).
 */
export function mergedGitShas(entries: readonly ShardEntry[]): NonNullable<Provenance['gitShas']> {
  const shas = new Map<string, { gitSha: string; shards: number[]; items: number }>();
  for (const e of [...entries].sort((a, b) => a.shard.index - b.shard.index)) {
    const sha = e.gitSha ?? 'unknown';
    const g = shas.get(sha) ?? { gitSha: sha, shards: [], items: 0 };
    g.shards.push(e.shard.index);
    g.items += e.items;
    shas.set(sha, g);
  }
  return [...shas.values()];
}

/** The warning when the shards of run `runId` ran different code (undefined: one git sha). */
export function mixedCodeWarning(runId: string, entries: readonly ShardEntry[]): string | undefined {
  const shas = mergedGitShas(entries);
  if (shas.length < 2) return undefined;
  const which = shas.map((g) => `${g.gitSha.slice(0, 12)} (shard${g.shards.length > 1 ? 's' : ''} ${g.shards.join(', ')})`).join(', ');
  return `run ${runId}: the shards ran different code (git sha ${which}); the merged provenance names each (provenance.gitShas; gitSha is shard 1's), each shard's is in config.json mergedFrom`;
}
