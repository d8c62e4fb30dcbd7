/** The systems `run mad` runs (system.ts); a module of its own so the CLI help loads no agent. */
export const MAD_SYSTEMS = ['mad', 'single-rag', 'self-consistency'] as const;
export type MadSystemName = (typeof MAD_SYSTEMS)[number];

/** The most debate rounds a run may have (`--rounds` 1–3; debate.ts refuses more): MAD's per-round flags `correctAfterRound1` … this many. */
export const MAD_MAX_ROUNDS = 3;
