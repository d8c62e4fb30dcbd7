/**
 * Tool usage from the traces: calls per tool, calls per item, distinct passages returned per item.
 * Uses the runner's record of retrieval-tool calls (trace.runner.toolCalls); for traces without
 * it, any {tool, ids} objects in the system's own trace (e.g. CASE advocates' toolCalls).
 */
import { num, table } from '../format.js';
import type { SectionBuilder } from '../types.js';

export interface ToolCallLike {
  tool: string;
  ids?: string[];
  error?: string;
}

function walk(v: unknown, out: ToolCallLike[], depth = 0): void {
  if (depth > 12 || !v || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const x of v) walk(x, out, depth + 1);
    return;
  }
  const o = v as Record<string, unknown>;
  if (typeof o.tool === 'string' && (Array.isArray(o.ids) || 'query' in o || 'input' in o)) {
    if (o.repeated === true) return; // a repeat of an earlier call of the same reply, run once (agents/common/repeated-tool-calls.ts)
    out.push({ tool: o.tool, ids: Array.isArray(o.ids) ? (o.ids as unknown[]).map(String) : [], error: typeof o.error === 'string' ? o.error : undefined });
    return;
  }
  for (const [k, x] of Object.entries(o)) if (k !== 'runner') walk(x, out, depth + 1);
}

/** The tool calls of one trace. */
export function toolCallsOf(trace: Record<string, unknown>): ToolCallLike[] {
  const runner = trace.runner as { toolCalls?: ToolCallLike[] } | undefined;
  if (Array.isArray(runner?.toolCalls) && runner.toolCalls.length) return runner.toolCalls;
  const out: ToolCallLike[] = [];
  walk(trace, out);
  return out;
}

/**
 * "over the 6 of 8 items whose traces were read (…)": the one wording of a tool-call figure's items when some recorded
 * items' traces were not read (another attempt's, missing or of the wrong shape; `lexcase report` warns which): their
 * calls are unknown, so no per-item figure counts them as items with none.
 */
export const tracedItemsText = (traced: number, recorded: number): string =>
  `over the ${traced} of ${recorded} items whose traces were read (${recorded - traced} not read: another attempt's, missing or of the wrong shape; their calls are in no figure)`;

export const toolUsageSection: SectionBuilder = (run) => {
  if (run.traces.size === 0) return null;
  const perTool = new Map<string, { calls: number; items: number; errors: number }>();
  let total = 0;
  let distinctSum = 0;
  for (const trace of run.traces.values()) {
    const calls = toolCallsOf(trace);
    total += calls.length;
    distinctSum += new Set(calls.flatMap((c) => c.ids ?? [])).size;
    const used = new Set<string>();
    for (const c of calls) {
      const e = perTool.get(c.tool) ?? { calls: 0, items: 0, errors: 0 };
      e.calls++;
      if (c.error) e.errors++;
      if (!used.has(c.tool)) {
        e.items++;
        used.add(c.tool);
      }
      perTool.set(c.tool, e);
    }
  }
  if (total === 0) return { id: 'toolUsage', title: 'Tool usage', markdown: 'No tool calls in the traces.', json: { totalCalls: 0, tools: {} } };
  const n = run.traces.size;
  // the recorded items whose traces were not read: their calls are unknown, left out of `n`, and said
  const recorded = new Set([...(run.results ?? []).map((r) => r.id), ...run.traces.keys()]).size;
  const rows = [...perTool].sort(([a], [b]) => a.localeCompare(b, 'en')).map(([t, e]) => [t, e.calls, (e.calls / n).toFixed(2), e.items, e.errors]);
  const json = {
    totalCalls: total,
    items: n,
    ...(recorded > n ? { itemsWithoutTrace: recorded - n } : {}),
    callsPerItem: total / n,
    distinctPassagesPerItem: distinctSum / n,
    tools: Object.fromEntries([...perTool].map(([t, e]) => [t, { ...e, callsPerItem: e.calls / n }])),
  };
  return {
    id: 'toolUsage',
    title: 'Tool usage',
    markdown:
      table(['tool', 'calls', 'calls / item', 'items using it', 'errors'], rows) +
      `\n\n${num(total)} calls over ${n} items; ${(distinctSum / n).toFixed(1)} distinct passages returned per item${recorded > n ? `; calls / item and this figure ${tracedItemsText(n, recorded)}` : ''}.`,
    json,
  };
};
