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
 *  - `mixedCodeWarning(runId, entries)`: the warning when the shards ran different code (git shas).
 */
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
  const c = resultConfig(withCanonicalSystem(unsharded(config)));
  if (c.indexContent !== undefined && typeof c.index === 'string') delete c.index;
  return c;
}

export function shardProvenance(file: Partial<RunConfigFile>, merged: Record<string, unknown>): ShardProvenance {
  const own = unsharded(file.config);
  const differs: Record<string, unknown> = Object.fromEntries(Object.entries(operationalChanges(merged, own)).map(([k, v]) => [k, v.to]));
  if (stableJson(own.index) !== stableJson(merged.index)) differs.index = own.index ?? null;
  return {
    gitSha: file.provenance?.gitSha ?? null,
    lexcaseVersion: file.provenance?.lexcaseVersion ?? null,
    createdAt: file.provenance?.createdAt ?? null,
    resumes: file.resumes ?? [],
    ...(Object.keys(differs).length ? { settings: differs } : {}),
  };
}

/** The warning when the shards of run `runId` ran different code (undefined: one git sha). */
export function mixedCodeWarning(runId: string, entries: readonly (ShardProvenance & { shard: { index: number; count: number } })[]): string | undefined {
  const shas = new Map<string, number[]>();
  for (const e of entries) {
    const sha = e.gitSha ?? 'unknown';
    shas.set(sha, [...(shas.get(sha) ?? []), e.shard.index]);
  }
  if (shas.size < 2) return undefined;
  const which = [...shas].map(([sha, idx]) => `${sha.slice(0, 12)} (shard${idx.length > 1 ? 's' : ''} ${idx.join(', ')})`).join(', ');
  return `run ${runId}: the shards ran different code (git sha ${which}); the merged provenance names shard 1's, each shard's is in config.json mergedFrom`;
}
