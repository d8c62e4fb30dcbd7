/**
 * `--shard i/n`: split a grid's items across machines. Inside `withShard({ index, count }, fn)` every
 * `runExperiment` keeps only the items at positions p with p mod n = i − 1 (of the item list it was
 * given, after --limit), and records, per run dir, every item id and the ids it kept — so
 * `lexcase merge` can prove the shards together hold each item exactly once.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { errors } from '../../core/errors.js';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export interface ShardRecord {
  allIds: string[];
  keptIds: string[];
}

interface ShardScope {
  shard: Shard;
  records: Map<string, ShardRecord>;
}

const scope = new AsyncLocalStorage<ShardScope>();

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || index < 1 || index > count)
    throw errors.usage(`--shard must be i/n with 1 ≤ i ≤ n, got "${text}"`, 'e.g. --shard 1/4 on the first of four hosts');
  return { index, count };
}

export const shardLabel = (s: Shard) => `${s.index}/${s.count}`;

/** Items of shard `s` (1-based) from a list: positions p with p mod count = index − 1. */
export function shardItems<T>(items: readonly T[], s: Shard): T[] {
  return items.filter((_, p) => p % s.count === s.index - 1);
}

/** Run `fn` with a shard in force; returns its result and what each run dir kept. */
export async function withShard<R>(shard: Shard, fn: () => Promise<R>): Promise<{ result: R; records: Map<string, ShardRecord> }> {
  const records = new Map<string, ShardRecord>();
  const result = await scope.run({ shard, records }, fn);
  return { result, records };
}

/** Called by the runner: the items this process should run for `runDir` (all of them outside a shard scope). */
export function selectShardItems<T extends { id: string }>(runDir: string, items: T[]): T[] {
  const s = scope.getStore();
  if (!s) return items;
  const kept = shardItems(items, s.shard);
  s.records.set(runDir, { allIds: items.map((i) => i.id), keptIds: kept.map((i) => i.id) });
  return kept;
}
