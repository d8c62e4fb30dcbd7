/**
 * Values repaired: numbers the model wrote outside their schema's bounds (a server that ignores
 * minimum/maximum) that were clamped to the bound (core/llm/bound-repair.ts), summed from the
 * results' `repairs` by step and field. Absent when nothing was repaired.
 */
import { table } from '../format.js';
import type { SectionBuilder } from '../types.js';
import { tallyPerKey } from './tally.js';

export const repairsSection: SectionBuilder = (run) => {
  const sorted = tallyPerKey(run.results, (r) => r.repairs).map(([k, t]) => [k, { values: t.total, items: t.items }] as const);
  if (sorted.length === 0) return null;
  const total = sorted.reduce((a, [, f]) => a + f.values, 0);
  const items = run.results.filter((r) => Object.values(r.repairs ?? {}).some((n) => n > 0)).length;
  return {
    id: 'repairs',
    title: 'Values repaired',
    markdown:
      `values repaired: ${total} (${sorted.map(([k, f]) => `${k}: ${f.values}`).join(', ')}) in ${items} of ${run.results.length} items. ` +
      `The model wrote these numbers outside the bounds of the schema it was sent (a server that does not enforce minimum/maximum, ` +
      `such as llama.cpp or Ollama); each was clamped to the bound it crossed, and the exchange in llm/<item>.jsonl says which (\`repaired\`).\n\n` +
      table(
        ['step: field', 'values', 'items'],
        sorted.map(([k, f]) => [k, f.values, f.items]),
      ),
    json: { total, items, byField: Object.fromEntries(sorted) },
  };
};
