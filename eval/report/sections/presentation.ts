/**
 * Presentation orders and tie draws (issue 36, item 4): where a paper fixes no order, a system shows
 * competing things (a clash's two sides, the briefs a judge reads, the roles a selector picks from)
 * in an order drawn from the item's seed, and breaks a tie that survives its tie rule by a seeded
 * draw; each draw is recorded in the item's trace (`presentation`: {kind, at?, order, first?, seed},
 * agents/common/presentation-order.ts). This section counts them per kind, and how often each label
 * came first — "clash sides: support first in 12 of 24" — so a reader can see the orders balanced.
 * docs/validity.md lists every order and tie rule with its seed.
 */
import { table } from '../format.js';
import type { SectionBuilder } from '../types.js';

interface Draw {
  kind: string;
  first: string;
}

function drawsOf(trace: Record<string, unknown>): Draw[] {
  const list = trace.presentation;
  if (!Array.isArray(list)) return [];
  return list.flatMap((x) => {
    const r = x as { kind?: unknown; order?: unknown; first?: unknown };
    if (typeof r.kind !== 'string' || !Array.isArray(r.order)) return [];
    const first = typeof r.first === 'string' ? r.first : r.order.length ? String(r.order[0]) : '–';
    return [{ kind: r.kind, first }];
  });
}

export const presentationSection: SectionBuilder = (run) => {
  const byKind = new Map<string, Map<string, number>>();
  for (const trace of run.traces.values())
    for (const d of drawsOf(trace)) {
      const m = byKind.get(d.kind) ?? new Map<string, number>();
      m.set(d.first, (m.get(d.first) ?? 0) + 1);
      byKind.set(d.kind, m);
    }
  if (byKind.size === 0) return null;
  const kinds = [...byKind].sort(([a], [b]) => a.localeCompare(b, 'en'));
  const rows = kinds.map(([kind, m]) => {
    const n = [...m.values()].reduce((a, b) => a + b, 0);
    const firsts = [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'en')).map(([label, c]) => `${label} ${c}`);
    return [kind, n, firsts.length > 6 ? `${firsts.slice(0, 6).join(', ')}, … (${firsts.length} labels)` : firsts.join(', ')];
  });
  const json = Object.fromEntries(kinds.map(([kind, m]) => [kind, { draws: [...m.values()].reduce((a, b) => a + b, 0), first: Object.fromEntries(m) }]));
  return {
    id: 'presentation',
    title: 'Presentation orders and tie draws (seeded)',
    markdown: `Orders the paper does not fix, drawn per item from the run's seed (docs/validity.md, "Presentation orders and ties"); "first" counts what was shown first (for a tie-break: the letter drawn).\n\n${table(['kind', 'draws', 'first (count)'], rows, ['l', 'r', 'l'])}`,
    json,
  };
};
