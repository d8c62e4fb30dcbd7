/**
 * A replay's token counts against its recording's. A replay reads each reply's usage as this
 * lexcase reads usage, which a recording made by an older lexcase did not: against a server that
 * reported only `total_tokens`, one counted the calls as without usage (`total` 0, `unreported`);
 * against a content filter, one did not count `filtered`. Those replays wrote other token counts
 * than the recording's results.jsonl, unchecked, though a replay is to reproduce it. Now the runner
 * compares each replayed item's `tokens` with the recorded line's and warns, naming the items and
 * the fields that differ; the replay's results.jsonl holds this version's reading.
 */
import type { TokenUsage } from '../core/llm/usage.js';

/** "total 0 → 116, totalOnly – → 1, unreported 1 → –": the fields of `recorded` and `replayed` that differ; '' when none. */
export function tokenDiff(recorded: TokenUsage | undefined, replayed: TokenUsage | undefined): string {
  const a = (recorded ?? {}) as unknown as Record<string, number | undefined>;
  const b = (replayed ?? {}) as unknown as Record<string, number | undefined>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys
    .filter((k) => (a[k] ?? 0) !== (b[k] ?? 0))
    .map((k) => `${k} ${a[k] ?? '–'} → ${b[k] ?? '–'}`)
    .join(', ');
}

/** The warning for the items whose replayed counts differ (id → diff), of `items` replayed. */
export function replayTokenDiffText(diffs: ReadonlyMap<string, string>, items: number, from: string): string {
  const shown = [...diffs].slice(0, 3).map(([id, d]) => `${id}: ${d}`);
  const more = diffs.size > shown.length ? `; and ${diffs.size - shown.length} more` : '';
  return `the replayed token counts differ from the recording's (${from}) for ${diffs.size} of ${items} items (${shown.join('; ')}${more}): the recording's results.jsonl was counted by a lexcase that read usage otherwise (a server reporting only total_tokens, a content filter's stops); this replay's results.jsonl holds this version's counts, its answers are the recording's`;
}
