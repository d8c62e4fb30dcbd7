/**
 * `--shard i/n`: split a grid's items across machines. Inside `withShard({ index, count }, fn)` every
 * `runExperiment` keeps only the items at positions p with p mod n = i − 1 (of the item list it was
 * given, after --limit), and records, per run dir, every item id and the ids it kept — so
 * `lexcase merge` can prove the shards together hold each item exactly once, and the checksum of
 * every item's text (`allContentChecksum`), so it can prove the shards read the same data. A shard's run dir
 * records its shard (config.json `shard`; shard.json for dirs written before): resuming it outside
 * that shard — `lexcase run … --run-dir` without it, or another --shard — is refused, since it would
 * run the other shards' items into it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { errors } from '../../core/errors.js';
import { contentChecksum, datasetContentChecksum } from '../provenance.js';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export interface ShardRecord {
  allIds: string[];
  keptIds: string[];
  /**
   * The checksum of what a model is shown of every item of the run, not only the shard's
   * (eval/provenance.ts datasetContentChecksum over each item's contentChecksum): shards that read
   * different copies of the data (a question reworded under the same id) tell apart here, though
   * each ran other items. shard.json's `allContentChecksum`; absent in shard dirs written before 2026-12-01.
   */
  allContentChecksum?: string;
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

/** The shard in force (`reproduce --shard`), if any. */
export const currentShard = (): Shard | undefined => scope.getStore()?.shard;

/**
 * The shard a run dir being resumed belongs to: config.json's `shard`, else (a dir written before it
 * was recorded) its shard.json's. Refuses a resume under another shard or none (`shard`: the one in
 * force now), naming the reproduce command that resumes it.
 */
export function checkShardResume(runDir: string, recorded: Record<string, unknown>, shard: Shard | undefined): void {
  const fromFile = (): Shard | undefined => {
    const f = join(runDir, 'shard.json');
    if (!existsSync(f)) return undefined;
    try {
      return (JSON.parse(readFileSync(f, 'utf8')) as { shard?: Shard }).shard;
    } catch {
      return undefined;
    }
  };
  const was = (recorded.shard as Shard | undefined) ?? fromFile();
  if ((was ? shardLabel(was) : null) === (shard ? shardLabel(shard) : null)) return;
  const repro = dirname(dirname(runDir));
  throw errors.runInvalid(
    runDir,
    was
      ? `holds shard ${shardLabel(was)} of a reproduction's items${shard ? `, not shard ${shardLabel(shard)}` : ''}: resuming it ${shard ? 'as another shard' : 'without --shard'} would run other shards' items into it; resume it with \`lexcase reproduce <recipe> --run-dir ${repro} --shard ${shardLabel(was)}\`, or use a new run dir`
      : `was run without --shard, not as shard ${shardLabel(shard!)}; use a new --run-dir for the shard`,
  );
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
  const allContentChecksum = datasetContentChecksum(items, (it: T) => contentChecksum(it));
  s.records.set(runDir, { allIds: items.map((i) => i.id), keptIds: kept.map((i) => i.id), ...(allContentChecksum ? { allContentChecksum } : {}) });
  return kept;
}
