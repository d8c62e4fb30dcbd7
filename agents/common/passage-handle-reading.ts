import { RECORDED_READINGS } from '../../core/recorded-readings.js';

/**
 * How a run reads the handles its models cite, recorded in its config.json (`passageHandleReading`)
 * by every system whose models cite passages (CASE's advocates, MAD's roles and baselines, ACAL's
 * arguments): a lexcase before 2026-12-01 read "P3", "[P3]" and "p3" only, so a citation written
 * "(P3)", "P3." or "Passage 3" named no passage there (a MAD citation not in the index, a CASE
 * pick or an ACAL citation dropped), and a run dir it started resumes with a warning naming the field
 * (eval/resume-unrecorded.ts). One that recorded the reading on 2026-12-01 without "once per accepted
 * reply" counted such a citation at every parse of a reply (MAD: a re-asked or re-parsed reply; CASE: a
 * final reply's picks a compile call replaced): it resumes with "records an older passageHandleReading".
 * So does one that recorded "counted once per accepted reply" alone (2026-12-01): it matched a citation to
 * count by its text, so a handle whose real id a model had once written out counted as unresolved too, a
 * real id written out was read as that passage (MAD: in the index, seen, gold cited; CASE: a pick), and a
 * MAD rebuttal or judge was shown such a citation under a handle of its own ("P1, P2" as [P13]), which a
 * later reply could cite as a resolved handle.
 */
export const PASSAGE_HANDLE_READING = RECORDED_READINGS.passageHandleReading.current;
