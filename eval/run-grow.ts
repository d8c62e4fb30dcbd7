/**
 * Runs that grow: the config fields that only choose which items a run covers (`limit`, `split`)
 * may change on a resume when the new selection still holds every item the run has recorded — a
 * larger `--limit`, no limit, or a split that contains the old one. Only the new items run; the
 * new values replace the old ones in config.json and the resume records { field: { from, to } };
 * the provenance's items and dataset checksum become the grown run's (eval/runner.ts).
 * A selection that drops recorded items (a smaller limit, another split) is refused, and so is any
 * other field that differs.
 */
import { errors } from '../core/errors.js';

/**
 * Config keys (top level) that select the run's items and nothing else — and `hybridTuningOverlap`,
 * which only describes that selection (eval/hybrid-tuning-overlap.ts: how many of its questions a
 * default hybrid was tuned on): a grown run records its new value.
 */
export const GROW_KEYS: ReadonlySet<string> = new Set(['limit', 'split', 'hybridTuningOverlap']);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** `config` without its item-selecting keys. */
export function withoutGrowKeys(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).filter(([k]) => !GROW_KEYS.has(k)));
}

/** The item-selecting values that differ: { limit: { from: 2, to: 4 } }. */
export function growChanges(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of GROW_KEYS) if (!same(before[k], after[k])) out[k] = { from: before[k] ?? null, to: after[k] ?? null };
  return out;
}

const describe = (changes: Record<string, { from: unknown; to: unknown }>): string =>
  Object.entries(changes)
    .map(([k, v]) => `${k} ${JSON.stringify(v.from)} → ${JSON.stringify(v.to)}`)
    .join(', ');

/**
 * Refuses a change of limit/split whose items do not hold every recorded item (`recorded`: ids in
 * results.jsonl; `selected`: ids the new command selects).
 */
export function assertGrows(
  runDir: string,
  changes: Record<string, { from: unknown; to: unknown }>,
  recorded: Iterable<string>,
  selected: ReadonlySet<string>,
): void {
  const dropped: string[] = [];
  for (const id of recorded) if (!selected.has(id)) dropped.push(id);
  if (dropped.length)
    throw errors.runInvalid(
      runDir,
      `was started with another item selection (${describe(changes)}) and the new one leaves out ${dropped.length} recorded item${dropped.length === 1 ? '' : 's'} (e.g. ${dropped.slice(0, 3).join(', ')}): a run may grow (a larger --limit, no limit, or a split that holds its items), not shrink or move; use a new run dir`,
    );
}

export { describe as describeGrowth };

/**
 * Whether a change of the item selection plans fewer items than the run had (a limit lowered, or set where there was
 * none): allowed while it still holds every recorded item (a run stopped before its limit), said as narrowing, not growing.
 */
export function narrows(changes: Record<string, { from: unknown; to: unknown }>): boolean {
  const l = changes.limit;
  return l !== undefined && typeof l.to === 'number' && (l.from === null || (typeof l.from === 'number' && l.to < l.from));
}
