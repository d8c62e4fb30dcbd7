/**
 * The agents' defaults in one object: what a system uses when neither the command line nor the
 * library caller says. Read by the systems (agents/case/system.ts, advocate.ts, experiment.ts,
 * agents/mad/debate.ts) and by the CLI's flags and help (the `cli` schemas of agents/case/plugin.ts
 * and agents/mad/plugin.ts, src/cli/commands/evidence.ts), so the help says what the code does. A
 * small module: the CLI's help loads nothing heavy with it. (Passages per search: DEFAULT_K, retrieval/default-k.ts.)
 */
export const AGENT_DEFAULTS = {
  /** CASE: jurors per question, drawn from the five personas. */
  jurors: 3,
  /** CASE: model calls per advocate loop. */
  maxSteps: 6,
  /** CASE: tokens per advocate loop. */
  maxTokens: 20_000,
  /** MAD: debate rounds (1–3). */
  rounds: 2,
} as const;
