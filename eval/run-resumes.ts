/**
 * A run's resumes as config.json records them (`resumes`), and a merged run's as every shard's: a
 * merged run (`lexcase merge`, eval/reproduce/merge.ts) keeps each shard's resumes in `mergedFrom[].resumes`,
 * and from 2026-12-01 in its top-level `resumes` too, each with its shard. Before, the top-level list was
 * shard 1's alone, so report.md's "resumed" (and the commits a resume ran under) left out every other
 * shard's resumes, and the merged run's interrupts (every shard's) outnumbered the resumes that ran
 * their items again; a merged run dir written then is read from `mergedFrom`, which holds them all.
 */
import type { RunConfigFile } from './run-config-file.js';

export type RunResume = NonNullable<RunConfigFile['resumes']>[number];

/** Every shard's resumes, in shard order, each with its shard (`mergedFrom` of a merged run's config.json). */
export function shardResumes(from: readonly { shard: { index: number }; resumes?: readonly RunResume[] }[]): RunResume[] {
  return [...from].sort((a, b) => a.shard.index - b.shard.index).flatMap((s) => (s.resumes ?? []).map((r) => ({ ...r, shard: s.shard.index })));
}

/**
 * The run's resumes: a merged run's every shard's (from `mergedFrom`, which every merged run dir
 * records) and then the merged run dir's own (a resume of the merged dir: a top-level entry with no
 * shard that is no shard's — a merged dir written before 2026-12-01 copied shard 1's there without
 * one); another run's its own. Before, a merged run dir's own resumes were left out: report.md said
 * "resumed: 2× (shard 1: 1×, shard 2: 1×)" after the merged dir was resumed a third time.
 */
export function runResumes(file: Partial<Pick<RunConfigFile, 'resumes' | 'mergedFrom'>>): RunResume[] {
  const from = file.mergedFrom;
  const top = Array.isArray(file.resumes) ? file.resumes : [];
  if (!Array.isArray(from) || !from.length || !from.every((s) => Array.isArray(s.resumes))) return top;
  const shardAts = new Set(from.flatMap((s) => (s.resumes ?? []).map((r) => r.at)));
  return [...shardResumes(from), ...top.filter((r) => r.shard === undefined && !shardAts.has(r.at))];
}

/**
 * A line for each resume that found config.json without a field it records now, or with an older value of it
 * (`resumes[].unchecked`, eval/resume-unrecorded.ts: a reading such as replyReading, passageHandleReading or
 * factorMentionReading): the items done before it were made under what that older lexcase recorded, while the
 * config above shows this lexcase's value. Before, report.md said only "resumed: 1×" beside the new value, as if
 * every item had been read so.
 */
export function uncheckedResumeLines(resumes: readonly RunResume[]): string[] {
  return resumes
    .filter((r) => r.unchecked?.length)
    .map((r) => {
      const shard = r.shard !== undefined ? `shard ${r.shard}'s ` : '';
      const keys = r.unchecked?.join(', ');
      return `${shard}resume of ${r.at} found config.json written by an older lexcase without, or with an older value of, ${keys}: the ${r.skipped} item${r.skipped === 1 ? '' : 's'} done before it were made under that older lexcase's, the items it ran under the value shown here, so the figures may mix two (its stderr warning said which)`;
    });
}
