/** The 3-ply scenario modes (scenarios.ts); a module of its own so the CLI help loads no agent. */
export type ScenarioMode = 'arguable' | 'mismatched' | 'non-arguable';
export const SCENARIO_MODES: readonly ScenarioMode[] = ['arguable', 'mismatched', 'non-arguable'];
