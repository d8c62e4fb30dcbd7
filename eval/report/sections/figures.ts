/**
 * The run's headline figures — the same ones, computed by the same code (eval/systems.ts over
 * eval/stats/), as the explorer's run page and the /v1 API: Recall@k and MRR for a retrieval run,
 * accuracy (and the system's own rates) for the rest, each with its 95% interval and the interval's
 * method named beside it, and what a figure is over (its note: macro-F1's labels); where a system leaves failed items out of its figures (3-ply), their
 * count beside each figure. A run with fewer results than it planned (killed or interrupted) says so
 * under the table: its figures are over the items it finished.
 */
import { headlineFigures, recordedSystemSpec } from '../../systems.js';
import { methodsNoteFor } from '../../stats/index.js';
import { inProgressText, partialText, plannedItems } from '../../run-planned.js';
import { runWriter } from '../../run-dir-guard.js';
import { table } from '../format.js';
import type { SectionBuilder } from '../types.js';

export const figuresSection: SectionBuilder = (run, o) => {
  // the figures of the system that wrote the run (recordedSystemSpec), as the explorer's: a system of the user's own named "case" gets accuracy, not CASE's
  const system = typeof run.config.config.system === 'string' ? recordedSystemSpec(run.config) : null;
  const figures = headlineFigures(system, run.results, { config: run.config.config, seed: o.seed, iterations: o.iterations });
  if (!figures.length) return null;
  // a system whose figures leave failed items out of n (3-ply) shows how many beside each figure
  const leftOut = figures.some((f) => f.failed !== undefined);
  const rows = figures.map((f) => [f.label, f.n, ...(leftOut ? [f.failed ?? 0] : []), f.text, f.method]);
  const header = ['measure', 'n', ...(leftOut ? ['failed (left out of n)'] : []), 'value [95% interval]', 'interval'];
  // what a figure is over, as the explorer shows it beside the figure (macro-F1's labels, 3-ply's pool)
  const notes = figures.filter((f) => f.note).map((f) => `${f.label}: ${f.note}.`);
  const { planned, partial } = plannedItems(run.config, run.results.length);
  // a run still writing the dir (its run.lock held by a live process) has not stopped: no "resume it"
  const writer = partial ? runWriter(run.dir) : undefined;
  const warning = partial
    ? `\n\n**Warning: ${writer ? inProgressText(run.results.length, planned!, writer) : partialText(run.results.length, planned!, run.dir)}.**`
    : '';
  return {
    id: 'figures',
    title: 'Figures',
    markdown: table(header, rows) + warning + (notes.length ? `\n\n${notes.join(' ')}` : '') + `\n\n${methodsNoteFor(o)}`,
    json: { figures, planned, partial, ...(writer ? { inProgress: true } : {}) },
  };
};
