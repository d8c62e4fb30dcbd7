/**
 * Which config fields a resumed run must share with the run it continues: the ones that change
 * results. How requests are made — retries and their backoff, the per-request timeout, how many
 * run at once, whether and where responses are cached, the API key — does not change what a
 * model answers, so a resume may change them (e.g. raise `maxRetries` or `timeoutMs`, or use
 * `--no-cache` to get fresh replies for items that failed). They are compared nowhere, and the
 * values a resume changed are recorded in config.json's `resumes` entry.
 */

/** Keys that never change results, at the top level of a run config or inside one of its sections (e.g. `model`). */
export const OPERATIONAL_KEYS: ReadonlySet<string> = new Set([
  'timeoutMs',
  'maxReplyBytes',
  'maxRetries',
  'retryBaseMs',
  'retryMaxMs',
  'concurrency',
  'cacheDir',
  'apiKey',
  // a digest of the endpoint URL's query values (core/config.ts publicLlmConfig): they hold keys (which a resume may rotate) as
  // well as settings such as `?deployment=`, so a resume may change it, and says so with a warning (eval/runner.ts), not a refusal
  'baseUrlQuery',
  // the bootstrap of the run's own report (run acal --iterations): recorded for the other surfaces, no result depends on it (eval/report/recorded-bootstrap.ts)
  'bootstrap',
  // `indexContent.analyzerUnicode`: the Unicode version the index's analyzer read its characters with (indexer/analyzer-unicode.ts).
  // An index rebuilt under another Node: the same corpus and analyzer settings, terms that differ only for characters
  // assigned between the two versions; a resume over it warns (eval/runner.ts) rather than refuses, and records it in `changed`
  'analyzerUnicode',
]);

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A run's `dataFiles` — the data files it read, by split, each with where it was found, its path and
 * the sha256 of its bytes (corpora/legalbench.ts LegalBenchFileRecord) — as a resume, a merge and a
 * replay compare it: by each file's task (or dataset) and sha256, whatever split it was read for. The same bytes read from another place
 * (the bundled copy, a copy in $LEXCASE_LEGALBENCH_DIR, a shard host's own --data) change no result;
 * other bytes do (eval/resume-items.ts assertSameDataFiles names both files).
 */
export function dataFilesComparable(v: unknown): unknown {
  if (!isObject(v)) return v;
  // nor by the split they were read for: a run grown from --split val to all reads the same file (run-grow.ts
  // decides whether the new split holds the recorded items); before, that grow was refused as "field dataFiles differs"
  return Object.values(v)
    .map((f) => (isObject(f) ? Object.fromEntries(Object.entries(f).filter(([kk]) => kk !== 'source' && kk !== 'file' && kk !== 'split')) : f))
    .map((f) => JSON.stringify(f))
    .sort();
}

/**
 * Where a run's sampling values came from, not what they are: `model.paperDefaults`' `fromPaper` and
 * `lexcaseDefaults` (CASE, MAD, self-consistency, the baselines: src/cli/llm-options.ts) and EMAR's
 * top-level `sampling` (which keys were the paper's, which were given and by what). The values sent
 * to the model are recorded beside them (`model.temperature`, EMAR's `temperature`) and compared
 * there, so a resume that gives explicitly the value a default gave the first time (run case with
 * LEXCASE_LLM_TEMPERATURE=0.3, its default) resumes, and one that gives another value is refused
 * naming both (`model.temperature 0.3 recorded, 0.5 now`).
 */
function withoutSamplingProvenance(k: string, v: Record<string, unknown>): Record<string, unknown> {
  if (k !== 'model' || !isObject(v.paperDefaults)) return v;
  const { fromPaper: _p, lexcaseDefaults: _l, ...paper } = v.paperDefaults;
  return { ...v, paperDefaults: paper };
}

/**
 * config.json keys lexcase reads from the run's items, not from its settings: EMAR's macro-F1 label set
 * (agents/emar/cases.ts itemLabels: the options the items have). The items themselves are checked
 * (`dataFiles` and the item checksums), so a resume does not compare these; it changes no item's result, a
 * run an older lexcase wrote records none, and a grown run records the new value and says it
 * (eval/runner.ts: resumes[].grown) — before, report.md averaged over the first items' labels while the
 * command's own table used the grown run's. One list, read by both.
 */
export const ITEM_DERIVED_KEYS: readonly string[] = ['labels'];

/**
 * `config` without its operational keys (top level and one section deep), its `dataFiles` by checksum
 * (dataFilesComparable), and without where its sampling values came from (withoutSamplingProvenance).
 * `lexcaseFields: false` (a run of a system of the caller's own): its `dataFiles` and `sampling` are
 * its own fields, compared whole (before, a user's `dataFiles.test.file` changed unseen).
 */
export function resultConfig(config: Record<string, unknown>, o: { lexcaseFields?: boolean } = {}): Record<string, unknown> {
  const lexcase = o.lexcaseFields !== false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) {
    if (OPERATIONAL_KEYS.has(k)) continue;
    if (k === 'dataFiles' && lexcase) {
      out[k] = dataFilesComparable(v);
      continue;
    }
    // EMAR's record of which sampling keys were the paper's and which were given (its values: `temperature`, `topP`, `maxTokens`)
    if (k === 'sampling' && config.system === 'emar' && lexcase) continue;
    // a key read from the items (ITEM_DERIVED_KEYS): not compared, it follows them (a grown run records and says it)
    if (ITEM_DERIVED_KEYS.includes(k) && lexcase) continue;
    out[k] = isObject(v) ? withoutSamplingProvenance(k, Object.fromEntries(Object.entries(v).filter(([kk]) => !OPERATIONAL_KEYS.has(kk)))) : v;
  }
  return out;
}

/** The operational values that differ between the recorded and the new config: { "model.maxRetries": { from: 4, to: 8 } }. */
export function operationalChanges(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, { from: unknown; to: unknown }> {
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  const visit = (a: Record<string, unknown>, b: Record<string, unknown>, prefix: string, depth: number) => {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (OPERATIONAL_KEYS.has(k)) {
        if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) changes[`${prefix}${k}`] = { from: a[k] ?? null, to: b[k] ?? null };
      } else if (depth === 0 && isObject(a[k]) && isObject(b[k])) visit(a[k] as Record<string, unknown>, b[k] as Record<string, unknown>, `${k}.`, 1);
    }
  };
  visit(before, after, '', 0);
  return changes;
}

/**
 * The log line's list of the operational values a resume changes (`changed`, against the values
 * recorded at the start), each with the value the latest attempt ran with (the last earlier resume
 * that changed it, else the start's): `model.cacheDir false (was "/c3")`, or, when an earlier resume
 * already switched it, `model.cacheDir false (as the last resume; recorded at the start: "/c3")`.
 */
export function describeOperationalChanges(
  changed: Record<string, { from: unknown; to: unknown }>,
  resumes: readonly { changed?: Record<string, { from: unknown; to: unknown }> }[] = [],
): string {
  const latest = (k: string, start: unknown): unknown => {
    for (let i = resumes.length - 1; i >= 0; i--) {
      const c = resumes[i].changed;
      if (c && k in c) return c[k].to;
    }
    return start;
  };
  return Object.entries(changed)
    .map(([k, v]) => {
      const last = latest(k, v.from);
      const [to, from, was] = [v.to, v.from, last].map((x) => JSON.stringify(x ?? null));
      if (was === to) return `${k} ${to} (as the last resume; recorded at the start: ${from})`;
      return `${k} ${to} (was ${was}${was !== from ? `; recorded at the start: ${from}` : ''})`;
    })
    .join(', ');
}

/**
 * JSON with object keys sorted: two configs that hold the same values compare equal whatever their key order.
 * The order is English collation, named, not the machine's locale (the request fingerprint config.json
 * records hashes this text: under LANG=haw_US.UTF-8 it once differed and a resume was refused).
 */
export const stableJson = (v: unknown): string =>
  JSON.stringify(v, (_k, val) =>
    val && typeof val === 'object' && !Array.isArray(val) ? Object.fromEntries(Object.entries(val).sort(([a], [b]) => a.localeCompare(b, 'en'))) : val,
  );

/** The first top-level key whose values differ between two configs (undefined: none). */
export function firstDifference(a: Record<string, unknown>, b: Record<string, unknown>): string | undefined {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (stableJson(a[k]) !== stableJson(b[k])) return k;
  return undefined;
}

/** The deepest paths (dotted) where two values differ, with both values (undefined: not set there); arrays compare whole. */
export function deepDifferences(a: unknown, b: unknown, path = ''): { path: string; before: unknown; after: unknown }[] {
  if (stableJson(a) === stableJson(b)) return [];
  if (!isObject(a) || !isObject(b)) return [{ path, before: a, after: b }];
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].flatMap((k) => deepDifferences(a[k], b[k], path ? `${path}.${k}` : k));
}

/** A value in a refusal: its JSON when short ("(unset)" when absent), else nothing. */
const shortValue = (v: unknown): string | undefined => {
  if (v === undefined) return '(unset)';
  const s = stableJson(v);
  return s.length <= 60 ? s : undefined;
};

/**
 * What differs in top-level field `key` between the recorded config (`before`) and the new one
 * (`after`), for a refusal: the deepest differing paths and, when short, both values, e.g.
 * `indexContent.dense.vectors.maxWords 512 recorded, 256 now` (at most 3 paths, then how many more);
 * `labels` name the two sides (a merge: the other shard's "there", this one's "here").
 */
export function describeDifference(
  key: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  labels: readonly [string, string] = ['recorded', 'now'],
): string {
  const diffs = deepDifferences(before[key], after[key], key);
  const shown = diffs.slice(0, 3).map((d) => {
    const [was, now] = [shortValue(d.before), shortValue(d.after)];
    return `${d.path}${was !== undefined && now !== undefined ? ` ${was} ${labels[0]}, ${now} ${labels[1]}` : ''}`;
  });
  return `${shown.join('; ')}${diffs.length > 3 ? `; and ${diffs.length - 3} more` : ''}`;
}
