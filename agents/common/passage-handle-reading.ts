/**
 * How a run reads the handles its models cite, recorded in its config.json (`passageHandleReading`)
 * by every system whose models cite passages (CASE's advocates, MAD's roles and baselines, ACAL's
 * arguments): a lexcase before 2026-12-01 read "P3", "[P3]" and "p3" only, so a citation written
 * "(P3)", "P3." or "Passage 3" named no passage there (a MAD citation not in the index, a CASE
 * pick or an ACAL citation dropped), and a run dir it started resumes with a warning naming the field
 * (eval/resume-unrecorded.ts). One that recorded the reading on 2026-12-01 without "once per accepted
 * reply" counted such a citation at every parse of a reply (MAD: a re-asked or re-parsed reply; CASE: a
 * final reply's picks a compile call replaced): it resumes with "records an older passageHandleReading".
 */
export const PASSAGE_HANDLE_READING =
  'one handle alone, wrapped or punctuated, any case ("P3", "[P3]", "(P3)", "P3.", "【P3】", "Passage 3", "P03"); none where it could be another ("P3, P5"), counted once per accepted reply (metrics.unresolvedCitations)';
