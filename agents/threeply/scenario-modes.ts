/** The 3-ply scenario modes (scenarios.ts); a module of its own so the CLI help loads no agent. */
export type ScenarioMode = 'arguable' | 'mismatched' | 'non-arguable';
export const SCENARIO_MODES: readonly ScenarioMode[] = ['arguable', 'mismatched', 'non-arguable'];

/** The scenario mode encoded in a triple id ("mismatched-007" → "mismatched"). */
export function modeOfId(id: string): ScenarioMode | undefined {
  return SCENARIO_MODES.find((m) => id.startsWith(`${m}-`));
}
