/** Token usage summed from results (input/output tokens actually sent to the endpoint; cache hits counted apart). */
import { num, table } from '../format.js';
import type { SectionBuilder } from '../types.js';

export const tokensSection: SectionBuilder = (run) => {
  const withTokens = run.results.filter((r) => r.tokens);
  if (withTokens.length === 0) return null;
  const t = { input: 0, output: 0, total: 0, calls: 0, cached: 0 };
  for (const r of withTokens) for (const k of Object.keys(t) as (keyof typeof t)[]) t[k] += r.tokens![k] ?? 0;
  if (t.calls === 0) return { id: 'tokens', title: 'Tokens', markdown: 'No LLM calls (offline run).', json: { ...t, perItem: 0 } };
  const n = withTokens.length;
  const ms = run.results.reduce((a, r) => a + (r.ms ?? 0), 0);
  const rows = [
    ['input', num(t.input), num(t.input / n, 1)],
    ['output', num(t.output), num(t.output / n, 1)],
    ['total', num(t.total), num(t.total / n, 1)],
    ['LLM calls', num(t.calls), num(t.calls / n, 2)],
    ['cache hits', num(t.cached), num(t.cached / n, 2)],
  ];
  return {
    id: 'tokens',
    title: 'Tokens',
    markdown: table(['', 'total', 'per item'], rows) + `\n\nWall time per item: ${(ms / n / 1000).toFixed(2)} s (mean).`,
    json: { ...t, items: n, perItem: t.total / n, msPerItem: ms / n },
  };
};
