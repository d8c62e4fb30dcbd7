/**
 * Config fields that later lexcase versions record and a run dir written before them does not
 * hold, so a resume (eval/runner.ts) or a replay (eval/llm-exchanges.ts) has nothing to check them
 * against:
 *
 *   indexContent  what the index held (indexer/manifest.ts `indexContent`: corpus checksum, analyzer,
 *                 dense model); agent runs recorded only its path before
 *   model         the whole public LLM config (endpoint, provider, sampling, structured-output mode);
 *                 EMAR, 3-ply and ACAL runs recorded only the model id (a string) before
 *   evidenceQuery ACAL's (and its RAG baseline's) evidence search query, the task's terms and the
 *                 whole item text; unknown only where it was the same before: learned_hands_courts
 *                 searched with the post's first 600 characters, so its old run dirs (with
 *                 retrieval) differ and are refused
 *   passageChars  the characters of each evidence passage ACAL and its RAG baseline show; unknown
 *                 only when it is 700, what every ACAL run showed before it was recorded (MAD has
 *                 always recorded its own)
 *
 * Such a field is "unknown", not a difference: the resume goes on, says so in a warning, records
 * the fields in its `resumes` entry (`unchecked`), and config.json records them from then on, so
 * the next resume checks them. Any other missing or differing field is still a difference.
 */

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Each field: whether the old config (`old`, whole) lacks what the new one records, what it is, for
 * the warning, and (`differed`) why an old config without it is refused where it is not "unknown".
 */
const ADDED: {
  key: string;
  what: string;
  lacks(before: unknown, after: unknown, old: Record<string, unknown>): boolean;
  differed?: string;
}[] = [
  {
    key: 'indexContent',
    what: "the index's corpus checksum and analyzer",
    lacks: (before, after) => before === undefined && after !== undefined,
  },
  {
    key: 'model',
    what: 'the LLM endpoint, provider and sampling',
    lacks: (before, after) => typeof before === 'string' && isObject(after) && after.model === before,
  },
  {
    key: 'evidenceQuery',
    what: 'the evidence search query',
    lacks: (before, after, old) => before === undefined && after !== undefined && (old.task !== 'learned_hands_courts' || old.k === 0),
    differed: "this run dir's items were retrieved by an older lexcase, which searched with the first 600 characters of each post only",
  },
  {
    key: 'passageChars',
    what: 'the characters of each evidence passage shown',
    lacks: (before, after, old) => before === undefined && after === 700 && String(old.system).startsWith('acal'),
    differed: 'an older lexcase, which did not record it, showed 700 characters of each passage',
  },
];

/**
 * `before` (a recorded config) with the fields it does not record taken from `after` (the new
 * run's), and those fields' keys and descriptions; `before` itself is not changed.
 */
export function withUnrecorded(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { config: Record<string, unknown>; unrecorded: { key: string; what: string }[] } {
  const unrecorded = ADDED.filter((f) => f.lacks(before[f.key], after[f.key], before));
  if (!unrecorded.length) return { config: before, unrecorded: [] };
  return {
    config: { ...before, ...Object.fromEntries(unrecorded.map((f) => [f.key, after[f.key]])) },
    unrecorded: unrecorded.map(({ key, what }) => ({ key, what })),
  };
}

/** Why `key`, which an older lexcase did not record, differs for this old config (the refusal's reason), if known. */
export function unrecordedDifference(key: string, before: Record<string, unknown>): string | undefined {
  return before[key] === undefined ? ADDED.find((f) => f.key === key)?.differed : undefined;
}
