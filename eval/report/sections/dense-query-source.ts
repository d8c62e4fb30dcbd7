/**
 * Dense query source: an agent run whose searches embedded their queries by another endpoint or model folder than
 * the index's passage vectors (config.json `denseQuerySource`, by method: retrieval/dense-query-source.ts). Its
 * rankings, and every figure made from them, rest on cosines between vectors of two sources; before, only the
 * warning on stderr as the index opened said so. Absent otherwise.
 */
import { querySourceText } from '../../../retrieval/dense-query-source.js';
import type { SectionBuilder } from '../types.js';

export const denseQuerySourceSection: SectionBuilder = (run) => {
  const recorded = run.config.config?.denseQuerySource;
  if (!recorded || typeof recorded !== 'object') return null;
  const entries = Object.entries(recorded as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string');
  if (!entries.length) return null;
  const lines = entries.map(([method, source]) => `${method}: ${querySourceText(source)}`);
  return {
    id: 'denseQuerySource',
    title: 'Dense query source',
    markdown: `${lines.map((l) => `**Warning:** ${l}.`).join('\n\n')} Every search of ${entries.length === 1 ? 'that method' : 'those methods'}, and every figure made from them, ranked by them.`,
    json: { methods: Object.fromEntries(entries), note: lines.join('; ') },
  };
};
