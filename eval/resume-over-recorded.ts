/**
 * Config fields an older lexcase recorded where this one records none for the same config (it
 * over-recorded them), so a run dir it wrote holds a field the same run now lacks — the mirror of
 * resume-unrecorded.ts (fields an older lexcase did not record):
 *
 *   searchScoreDigits  changed 2026-12-01: `run case` recorded the hybrid's digits for every method
 *                      of its index, a hybrid its --tools (or its offline advocates) never searched
 *                      included; since, every system records them for the methods its searches use
 *                      only (retrieval/top-k.ts searchScoreDigits)
 *   index, indexContent, retrievers
 *                      changed 2026-12-01: `run baseline --mode llm-only` opened the default index and
 *                      recorded it, though it searches nothing; since, it opens and records none (a
 *                      run that changed its mode to or from llm-only is still refused by `mode`)
 *
 * Such a field is dropped from the recorded config where the new one records none: not a
 * difference, and not "unknown" either (nothing the results depend on went unrecorded), so a resume
 * says nothing of it. The fields that decide whether it is recorded (CASE's tools, mode, retrievers
 * and index, MAD's method, the RAG baselines' mode, ACAL's index) are compared as before, so a run
 * whose searches changed is still refused, naming the first field that differs as before (in MAD's,
 * ACAL's and the baselines' configs those fields come before it; CASE's dropped it before this rule
 * too). No `system` test: the same run now recording none is what says the record did not apply.
 * Read only in a run of a lexcase system: a system of the caller's own (`lexcaseFields: false`) has
 * its fields compared as they are.
 */

/** Each over-recorded field: its key and the lexcase version (the day) since which it is recorded only where it applies. */
const OVER_RECORDED: { key: string; since: string }[] = [
  { key: 'searchScoreDigits', since: '2026-12-01' },
  { key: 'index', since: '2026-12-01' },
  { key: 'indexContent', since: '2026-12-01' },
  { key: 'retrievers', since: '2026-12-01' },
];

/** `before` (a recorded config) without the over-recorded fields that `after` (the same run now) records none of; `before` itself is not changed. */
export function withoutOverRecorded(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  o: { lexcaseFields?: boolean } = {},
): Record<string, unknown> {
  if (o.lexcaseFields === false) return before;
  const dropped = OVER_RECORDED.filter((f) => before[f.key] !== undefined && after[f.key] === undefined);
  if (!dropped.length) return before;
  return Object.fromEntries(Object.entries(before).filter(([k]) => !dropped.some((f) => f.key === k)));
}
