/**
 * Dense searches cut: of an agent run's dense searches (results' `denseSearches`), how many were
 * longer than the dense model reads and so ranked by their start only (retrieval/dense-query-cut.ts
 * denseSearchesCutLine). Absent when no item recorded a dense search; a run resumed from a run dir
 * written before 2026-12-02 (which counted none) says how many of its items were not counted
 * (eval/item-counts.ts), even when none of the counted searches was cut.
 */
import { denseSearchesCutLine } from '../../../retrieval/dense-query-cut.js';
import { itemsUncounted, uncountedText } from '../../item-counts.js';
import type { SectionBuilder } from '../types.js';

export const denseSearchesSection: SectionBuilder = (run) => {
  const c = denseSearchesCutLine(run.results.map((r) => r.denseSearches));
  // resumed from a run dir an older lexcase wrote: its earlier items' searches were never counted, cut or not
  const old = c ? itemsUncounted(run.config) : undefined;
  if (!c?.cut && !c?.similarityQueries?.cut && !old) return null;
  const note = old ? `${c!.line}; ${uncountedText(old)}` : c!.line;
  return {
    id: 'denseSearches',
    title: 'Dense searches cut',
    markdown: `${note}.`,
    json: {
      searches: c!.searches,
      cut: c!.cut,
      items: c!.items,
      ...(c!.similarityQueries ? { similarityQueries: c!.similarityQueries } : {}),
      ...(old ? { uncountedItems: old.items, ...(old.failed ? { uncountedFailedItems: old.failed } : {}) } : {}),
      note,
    },
  };
};
