/** The systems `run acal` runs (experiment.ts); a module of its own so the CLI help loads no agent. */
export const ACAL_SYSTEMS = ['acal', 'sp', 'cot', 'rag'] as const;
export type AcalSystemName = (typeof ACAL_SYSTEMS)[number];
