/** What the report sections share about passages a prompt cut (agents/case, agents/mad, agents/acal report-section.ts): the tally and its wording. */

/** Items whose traces predate the count of cut passages (no `passageChars` in the trace): said, never counted as shown whole. */
export const notCounted = (n: number) =>
  `${n} item${n === 1 ? "'s trace is" : "s' traces are"} from before lexcase counted passages cut for the prompt: not in this count (their cuts are unknown).`;

/** How many passages of how many items a prompt cut, over traces; `uncounted`: traces from before the count. */
export interface CutTally {
  passages: number;
  cut: number;
  items: number;
  cutItems: number;
  uncounted: number;
}

/**
 * Tallies one kind of shown passage over traces. `read(trace)`: undefined when the trace shows none
 * of that kind; else how many it shows, how many of them were cut, and whether the trace is from a
 * lexcase that counted cuts (an uncounted trace is tallied apart, never as shown whole).
 */
export function tallyCuts<T>(traces: Iterable<T>, read: (trace: T) => { total: number; cut: number; counted: boolean } | undefined): CutTally {
  const t: CutTally = { passages: 0, cut: 0, items: 0, cutItems: 0, uncounted: 0 };
  for (const trace of traces) {
    const r = read(trace);
    if (!r || !r.total) continue;
    if (!r.counted) {
      t.uncounted++; // a trace written before the count: its cuts are unknown
      continue;
    }
    t.items++;
    t.passages += r.total;
    t.cut += r.cut;
    if (r.cut) t.cutItems++;
  }
  return t;
}

/**
 * A report line and report.json object for a tally: `cut(limit)` the line when some were cut,
 * `whole(limit)` when none was, `after(limit)` after either; the uncounted items said last. Undefined when nothing was counted or uncounted.
 */
export function cutReport(
  t: CutTally,
  passageChars: unknown,
  words: { cut: (limit: string) => string; whole: (limit: string) => string; after?: (limit: string) => string },
): { line: string; json: Record<string, unknown> } | undefined {
  if (!t.passages) return t.uncounted ? { line: notCounted(t.uncounted), json: { uncounted: t.uncounted } } : undefined;
  const limit = typeof passageChars === 'number' ? `${passageChars.toLocaleString('en-US')} characters` : 'config.json passageChars';
  return {
    line: (t.cut ? words.cut(limit) : words.whole(limit)) + (words.after?.(limit) ?? '') + (t.uncounted ? ` ${notCounted(t.uncounted)}` : ''),
    json: {
      passages: t.passages,
      cut: t.cut,
      items: t.items,
      cutItems: t.cutItems,
      passageChars: typeof passageChars === 'number' ? passageChars : null,
      ...(t.uncounted ? { uncounted: t.uncounted } : {}),
    },
  };
}
