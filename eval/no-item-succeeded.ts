/**
 * A run in which no item succeeded: every line of its results.jsonl holds an error (an endpoint that
 * refuses every request, a server that never answers). `lexcase run <system>` exits 1 with this line
 * (src/cli/run-command.ts); a merge of shards decides it over the merged items, not a shard's own.
 */

/** `no item succeeded: N of N failed (first error: …)`, or undefined when an item succeeded or none ran. */
export function noItemSucceeded(records: readonly { error?: string }[]): string | undefined {
  if (records.length === 0 || records.some((r) => r.error === undefined)) return undefined;
  const first = records[0].error!.split('\n')[0].trim();
  return `no item succeeded: ${records.length} of ${records.length} failed (first error: ${first.length > 300 ? `${first.slice(0, 299)}…` : first})`;
}

/** The start of that line, as a grid cell's error or an older reproduction.json's records it. */
export const NO_ITEM_LINE = /^no item succeeded: \d+ of \d+ failed/;
