/** `lexcase/agents/mad`: MAD: multi-agent debate and its baselines (agents/mad/). */
export {
  createMad,
  createSingleRag,
  createSelfConsistency,
  createMadSystem,
  runMadExperiment,
  runMadSeeds,
  madMetrics,
  seedConsistency,
  lexicallySupports,
  visibleOpponents,
  MAD_DEFAULTS,
  type MadSettings,
  type MadMetrics,
  type SeedConsistency,
  type MadExperimentOptions,
} from './index.js';
