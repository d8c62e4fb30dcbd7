/** The single-path baseline modes (baseline-system.ts); a module of its own so the CLI help loads no agent. */
export const BASELINE_MODES = ['llm-only', 'bm25-rag', 'qld-rag', 'dense-rag', 'hybrid-rag', 'oracle'] as const;
export type BaselineMode = (typeof BASELINE_MODES)[number];
