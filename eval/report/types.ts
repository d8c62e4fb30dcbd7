import type { PlotSpec } from '../plots/specs.js';
import type { ResultRecord } from '../types.js';
import type { RunConfigFile } from '../run-config-file.js';

/** Everything a report is computed from: the run dir's files, nothing else. */
export interface RunData {
  dir: string;
  config: RunConfigFile;
  results: ResultRecord[];
  /** traces/<id>.json by item id (only items that have one). */
  traces: Map<string, Record<string, unknown>>;
  /** A truncated last results line was ignored. */
  droppedTail: boolean;
}

export interface ReportOptions {
  /** Bootstrap resamples (default: the run's recorded `config.bootstrap`, else eval/stats RESAMPLES, 2,000 — as every surface). */
  iterations?: number;
  /** Bootstrap seed (default: the run's recorded `config.bootstrap`, else eval/stats SEED, 13 — as every surface). */
  seed?: number;
}

export interface ReportSection {
  id: string;
  title: string;
  /** Markdown body (without the heading). */
  markdown: string;
  /** The same figures, machine-readable. */
  json: unknown;
  /** Plots (Vega-Lite specs) written as SVG files beside report.md; the markdown embeds them by file name. */
  plots?: { file: string; title: string; spec: PlotSpec }[];
}

/** Builds one section from a run, or null when the run has nothing for it. */
export type SectionBuilder = (run: RunData, opts: Required<ReportOptions>) => ReportSection | null | Promise<ReportSection | null>;
