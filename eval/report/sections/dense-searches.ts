/**
 * Dense searches cut: of an agent run's dense searches (results' `denseSearches`), how many were
 * longer than the dense model reads and so ranked by their start only (retrieval/dense-query-cut.ts
 * denseSearchesCutLine). Absent when no item recorded a dense search (a run written before
 * 2026-12-02 recorded none: its items are said not counted where some are).
 */
import { denseSearchesCutLine } from '../../../retrieval/dense-query-cut.js';
import type { SectionBuilder } from '../types.js';

export const denseSearchesSection: SectionBuilder = (run) => {
  const c = denseSearchesCutLine(run.results.map((r) => r.denseSearches));
  if (!c?.cut) return null;
  return {
    id: 'denseSearches',
    title: 'Dense searches cut',
    markdown: `${c.line}.`,
    json: { searches: c.searches, cut: c.cut, items: c.items, note: c.line },
  };
};
