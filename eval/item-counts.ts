/**
 * What a run's results lines count per item beyond its answer, recorded in config.json as
 * `itemCounts` (every run, from 2026-12-02): `denseSearches` (an item's dense searches, and those
 * longer than the dense model reads: retrieval/dense-query-cut.ts) and `tokens.textOtherAnswer`
 * (forced-call replies whose text named another answer than their call: core/llm/text-beside-call.ts).
 * A run dir written before records none and its items counted neither: a resume says so
 * (eval/resume-unrecorded.ts, `resumes[].unchecked`), and report.md's lines on these counts say how
 * many items were run before that resume, uncounted (itemsUncounted) — before, "0 of 12 dense
 * searches were cut" of a run whose 28 earlier items were never counted read as the whole run's.
 */
import { runResumes } from './run-resumes.js';
import type { RunConfigFile } from './run-config-file.js';

export const ITEM_COUNTS =
  "denseSearches: an item's dense searches and those cut to the model's tokens; tokens.textOtherAnswer: forced-call replies whose text named another answer";

/**
 * The items of a run that a lexcase without `itemCounts` ran: the items skipped (already done) by the
 * first resume (of each shard, in a merged run) that found `itemCounts` unrecorded; undefined when none.
 * `at`: the earliest such resume.
 */
export function itemsUncounted(file: Partial<Pick<RunConfigFile, 'resumes' | 'mergedFrom'>> | undefined): { items: number; at: string } | undefined {
  if (!file) return undefined;
  const first = new Map<number | undefined, { skipped: number; at: string }>();
  for (const r of runResumes(file)) if (r.unchecked?.includes('itemCounts') && !first.has(r.shard)) first.set(r.shard, { skipped: r.skipped, at: r.at });
  const found = [...first.values()].filter((r) => r.skipped > 0);
  if (!found.length) return undefined;
  return { items: found.reduce((a, r) => a + r.skipped, 0), at: found.map((r) => r.at).sort()[0] };
}

/** "the 28 items run before the resume of 2026-12-02 (by an older lexcase) were not counted". */
export function uncountedText(u: { items: number; at: string }): string {
  return `the ${u.items.toLocaleString('en-US')} item${u.items === 1 ? '' : 's'} run before the resume of ${u.at.slice(0, 10)} (by an older lexcase) ${u.items === 1 ? 'was' : 'were'} not counted`;
}
