/**
 * The one comparison of a recorded run config with another, made by a resume (eval/runner.ts: the
 * run dir's config.json against the command's) and a merge (eval/reproduce/merge.ts: one shard's
 * against another's):
 *
 *  0. the fields an older lexcase recorded where this one records none for the same config are dropped
 *     from the recorded one (resume-over-recorded.ts withoutOverRecorded: e.g. CASE's `searchScoreDigits`
 *     for a hybrid its --tools left out, recorded before 2026-12-01);
 *  1. the fields an older lexcase did not record are taken from the other config (resume-unrecorded.ts
 *     withUnrecorded: "unknown", not a difference — e.g. a reproduce retrieval run's `splitSeed`,
 *     null before it recorded the default 13);
 *  2. both are compared as `comparable` makes them (what changes results: resume-config.ts resultConfig,
 *     and for a merge the index by its content), naming the first differing field, its deepest differing
 *     values and, for a field an older lexcase recorded otherwise, why (unrecordedDifference).
 *
 * Both steps read lexcase's own fields: for a run of a system of the caller's own (`lexcaseFields: false`)
 * only the runner's (seedDerivation, replyReading, usageReading) — its `prompts` or `dataFiles` are its own, compared as they are.
 *
 * Before, a merge compared the shards without step 1, so shards a resume would accept together (one
 * written before `splitSeed` was recorded, one after) were refused as different configs.
 */
import { describeDifference, firstDifference } from './resume-config.js';
import { withoutOverRecorded } from './resume-over-recorded.js';
import { unrecordedDifference, withUnrecorded, type Unrecorded } from './resume-unrecorded.js';

export interface RecordedComparison {
  /** `before` with the fields it does not record taken from `after`. */
  recorded: Record<string, unknown>;
  /** Those fields: dotted key, what it is and whether recorded with an older value (for the warning: unrecordedText). */
  unrecorded: Unrecorded[];
  /** The first field that differs, described (`field "x" differs: …`); undefined: none. */
  difference?: string;
}

/**
 * `before` (a recorded config, older or as old as `after`) against `after`, both whole (the
 * unrecorded rules read fields such as `system` from `before`); `labels` name the two sides in the
 * description (a resume's "recorded"/"now", a merge's "there"/"here").
 */
export function compareRecordedConfig(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  comparable: (config: Record<string, unknown>) => Record<string, unknown>,
  labels: readonly [string, string] = ['recorded', 'now'],
  o: { lexcaseFields?: boolean } = {},
): RecordedComparison {
  // a system of the caller's own (runExperiment without `lexcaseSystem`): its fields are its own, whatever their
  // names (`prompts`, `dataFiles`), never one an older lexcase did not record (only the runner's own are): a field it adds is a difference
  // a field an older lexcase recorded where this one records none for the same config (resume-over-recorded.ts: CASE's
  // `searchScoreDigits` for a hybrid its --tools left out; an llm-only baseline's index; both before 2026-12-01) is not a
  // difference: dropped first
  const { config: recorded, unrecorded } = withUnrecorded(withoutOverRecorded(before, after, o), after, o);
  const [was, now] = [recorded, after].map(comparable);
  const key = firstDifference(was, now);
  if (key === undefined) return { recorded, unrecorded };
  const why = unrecordedDifference(key, recorded, after, o);
  return { recorded, unrecorded, difference: `field "${key}" differs: ${describeDifference(key, was, now, labels)}${why ? `; ${why}` : ''}` };
}
