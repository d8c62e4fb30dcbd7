/**
 * A resume under other lexcase code than the run's: the items it runs are made by the running code,
 * the run's earlier items by the code config.json's provenance records (its git sha — a merged
 * run's every shard's, `gitShas` — and lexcase version). report.md names the resume's commit
 * afterwards (eval/report/sections/summary.ts) and config.json keeps it (`resumes[].gitSha`); before,
 * nothing said so while the resume ran, so a user resuming a week-old run dir after `git pull` or an
 * upgrade learnt it only from the report. Now one line on stderr when the resume starts names both.
 * 'unknown' compares as any sha does: a known sha against 'unknown' is other code, 'unknown' against
 * 'unknown' is not (no git here either time), as report.md counts it.
 */
import type { Provenance } from './provenance.js';

type Code = Pick<Provenance, 'gitSha' | 'lexcaseVersion'> & Pick<Partial<Provenance>, 'gitShas'>;

/** The stderr line for a resume of `runDir` whose recorded code (`recorded`) is not the running one, or undefined when it is the same. */
export function resumeCodeNote(runDir: string, recorded: Partial<Code> | undefined, running: Code): string | undefined {
  if (!recorded) return undefined;
  const shas = [...new Set([recorded.gitSha, ...(recorded.gitShas ?? []).map((g) => g.gitSha)].filter((s): s is string => typeof s === 'string'))];
  const otherSha = shas.length > 0 && !shas.includes(running.gitSha);
  const otherVersion = typeof recorded.lexcaseVersion === 'string' && recorded.lexcaseVersion !== running.lexcaseVersion;
  if (!otherSha && !otherVersion) return undefined;
  const was = `lexcase ${recorded.lexcaseVersion ?? '(version not recorded)'} at git sha ${shas.length ? shas.join(', ') : '(not recorded)'}`;
  const now = `lexcase ${running.lexcaseVersion} at git sha ${running.gitSha}`;
  return `resuming ${runDir} under other lexcase code than it was started with: started by ${was}, resumed by ${now} — the items this resume runs are made by this code (config.json resumes[].gitSha; report.md names it)`;
}
