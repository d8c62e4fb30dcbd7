/**
 * What a run's results lines count per item beyond its answer, recorded in config.json as
 * `itemCounts` (every run, from 2026-12-02): `denseSearches` (an item's dense searches, and those
 * longer than the dense model reads; CASE's learned selector's similarity queries, which are no
 * searches, apart in `denseSearches.similarityQueries`: retrieval/dense-query-cut.ts) and
 * `tokens.textOtherAnswer` (replies whose text — a forced call's text, a reasoning field, the prose
 * around a JSON object — named another answer than the one read: core/llm/text-beside-call.ts, whose
 * reading an LLM run records apart as `textOtherAnswerReading`). ITEM_COUNTS names the two fields;
 * the recorded text is compared on resume; ITEM_COUNTS_BEFORE_WIDENED, the text recorded on 2026-12-02 (which said
 * "forced-call replies" of textOtherAnswer, though it counted reasoning fields and a reply's prose too), names the same
 * fields, so a run dir recording it resumes with no word (what textOtherAnswer counts is textOtherAnswerReading's to say).
 * A run dir written before records none and its items counted neither: a resume says so
 * (eval/resume-unrecorded.ts, `resumes[].unchecked`), and report.md's lines on these counts say how
 * many of the lines that older lexcase wrote are still in the run, uncounted — its answered items,
 * and its failed ones while every later resume kept them failed, named as such (itemsUncounted,
 * uncountedText); the items any resume ran are counted.
 */
import { runResumes } from './run-resumes.js';
import type { RunConfigFile } from './run-config-file.js';

export const ITEM_COUNTS =
  "denseSearches: an item's dense searches and those cut to the model's tokens; tokens.textOtherAnswer: replies whose text (a forced call's text, a reasoning field, the prose around a JSON object) named another answer than the one read (textOtherAnswerReading)";

/** The `itemCounts` text recorded on 2026-12-02: the same fields, textOtherAnswer's described as of forced calls only. */
export const ITEM_COUNTS_BEFORE_WIDENED =
  "denseSearches: an item's dense searches and those cut to the model's tokens; tokens.textOtherAnswer: forced-call replies whose text named another answer";

/**
 * The items of a run whose results.jsonl lines a lexcase without `itemCounts` wrote, and so counted
 * neither: those the first resume (of each shard, in a merged run) that found `itemCounts` unrecorded
 * skipped (already done) — its answered items, which no resume runs again, and the failed ones it kept
 * as failed (`--no-retry-failed`: `keptFailed`) while every later resume of that shard (or of the merged
 * dir) kept them too. A failed item's line counts what the item did before it failed (the runner
 * records `denseSearches` and `tokens` for every item, failed ones included), so an older lexcase's
 * failed line lacks those counts as an answered one does; a later resume that ran the failed items
 * again (the default) replaced their lines with counted ones. Before, the first resume's `skipped`
 * was taken whole: 8 items "not counted" after a later resume had run 2 of them again and counted
 * them. `failed`: how many of `items` are such failed lines. `at`: the earliest such resume. Undefined when none.
 * `fields`: the recorded fields whose absence means the count was not made (`tokens.textOtherAnswer`: itemCounts or
 * textOtherAnswerReading, core/llm/text-beside-call.ts).
 */
export function itemsUncounted(
  file: Partial<Pick<RunConfigFile, 'resumes' | 'mergedFrom'>> | undefined,
  fields: readonly string[] = ['itemCounts'],
): { items: number; failed: number; at: string } | undefined {
  if (!file) return undefined;
  const resumes = runResumes(file);
  const found: { items: number; failed: number; at: string }[] = [];
  const seen = new Set<number | undefined>();
  resumes.forEach((r, i) => {
    if (!fields.some((f) => r.unchecked?.includes(f)) || seen.has(r.shard)) return;
    seen.add(r.shard);
    const kept = r.keptFailed ?? 0;
    // the resumes after it that read the same items: its shard's, and the merged dir's own (no shard)
    const later = resumes.slice(i + 1).filter((x) => x.shard === r.shard || x.shard === undefined);
    // a resume that did not keep failed items ran every failed line again (eval/runner.ts retryFailed): the old ones are gone
    const stillKept = kept > 0 && later.every((x) => (x.keptFailed ?? 0) > 0) ? kept : 0;
    const items = r.skipped - kept + stillKept;
    if (items > 0) found.push({ items, failed: stillKept, at: r.at });
  });
  if (!found.length) return undefined;
  return { items: found.reduce((a, r) => a + r.items, 0), failed: found.reduce((a, r) => a + r.failed, 0), at: found.map((r) => r.at).sort()[0] };
}

/**
 * "the 28 items run before the resume of 2026-12-02 (by an older lexcase) were not counted", and where some
 * of them failed and were kept as failed: "the 8 items run before the resume of 2026-12-02 (by an older
 * lexcase; 2 of them failed and were kept as failed) were not counted". `by` says by what, where the older
 * lexcase may have counted by a rule of its own: "were not counted by this reading".
 */
export function uncountedText(u: { items: number; failed?: number; at: string }, by = ''): string {
  const failed = u.failed
    ? `; ${u.failed === u.items ? (u.items === 1 ? 'it' : 'all of them') : `${u.failed.toLocaleString('en-US')} of them`} failed and ${u.failed === 1 ? 'was' : 'were'} kept as failed`
    : '';
  return `the ${u.items.toLocaleString('en-US')} item${u.items === 1 ? '' : 's'} run before the resume of ${u.at.slice(0, 10)} (by an older lexcase${failed}) ${u.items === 1 ? 'was' : 'were'} not counted${by ? ` ${by}` : ''}`;
}
