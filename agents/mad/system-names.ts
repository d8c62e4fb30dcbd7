/** The systems `run mad` runs (system.ts); a module of its own so the CLI help loads no agent. */
export const MAD_SYSTEMS = ['mad', 'single-rag', 'self-consistency'] as const;
export type MadSystemName = (typeof MAD_SYSTEMS)[number];
