/** Multi-agent debate (paper 002): the debate system, its baselines, metrics and the experiment runner. */
export { createMad, madSettings, MAD_DEFAULTS, type DebateTrace } from './debate.js';
export { createSingleRag, createSelfConsistency, majority } from './baselines.js';
export { createMadSystem, MAD_SYSTEMS, type MadSystemName } from './system.js';
export { visibleOpponents, parseTopology, TOPOLOGIES } from './topology.js';
export { lexicallySupports, termOverlap, checkCitations, SUPPORT_MIN_OVERLAP, SUPPORT_MIN_SHARED } from './citation-check.js';
export { itemCitationMetrics, type ItemCitationMetrics } from './citation-summary.js';
export { madMetrics, madMetricsMarkdown, seedConsistency, seedConsistencyMarkdown, predictionsOf, type MadMetrics, type SeedConsistency } from './metrics.js';
export { runMadExperiment, runMadSeeds, madRunName, type MadExperimentOptions, type MadExperimentResult, type MadSeedsResult } from './experiment.js';
export { madSection, roundFigures, checklistRates, MAD_REPORT_SYSTEMS } from './report-section.js';
export { CHECKLIST_ITEMS, type Brief, type Judgment, type MadSettings, type Topology, type CheckedCitation, type CrossExamination } from './types.js';
