/**
 * lexcase's one statistics module: every interval, paired difference, p-value and "outside CI"
 * flag any surface prints comes from here (report.md and `lexcase report`, `lexcase compare`, the
 * reproduction tables, `lexcase eval retrieval` / `eval run`, the agents' report sections, the
 * explorer's server and the /v1 API). The method per measure kind: ./methods.ts; the shared seed,
 * resamples and minimum n: ./settings.ts.
 */
export * from './settings.js';
export * from './methods.js';
export * from './interval.js';
export * from './metric-kinds.js';
export * from './outcome-interval.js';
export * from './metric-values.js';
export * from './mcnemar.js';
export * from './sign-flip.js';
export * from './paired.js';
export * from './flag.js';
export * from './format.js';
