export { readRun } from './read-run.js';
export { buildReport, writeReport, GENERIC_SECTIONS, type Report } from './write-report.js';
export { registerReportSection } from './registry.js';
export { compareRuns, compareRunData, formatComparison, type Comparison } from './compare.js';
export { toolCallsOf } from './sections/tool-usage.js';
export { table, pct, ciText } from './format.js';
export type { RunData, ReportSection, SectionBuilder, ReportOptions } from './types.js';
