/**
 * The agents' defaults in one object: what a system uses when neither the command line nor the
 * library caller says. Read by the systems (agents/case/system.ts, advocate.ts, experiment.ts,
 * agents/mad/debate.ts) and by the CLI's flags and help (the `cli` schemas of agents/case/plugin.ts
 * and agents/mad/plugin.ts, src/cli/commands/evidence.ts), so the help says what the code does. A
 * small module: the CLI's help loads nothing heavy with it. (Passages per search: DEFAULT_K, retrieval/default-k.ts.)
 */
import { SNIPPET_MARKS } from '../../retrieval/tools/snippet.js';

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

/**
 * How much of each text CASE's prompts show: a longer text is cut to this many characters, ending in
 * "…" (agents/common/question-text.ts `truncate`). Not flags; config.json records them for each run
 * that uses them (`run case` with an LLM: all but `baselinePassageChars`; `run baseline` with
 * passages: `passageChars`), and docs/case.md says them.
 */
export const CASE_PROMPT_LIMITS = {
  /** A juror's case file: characters of each evidence passage (config.json `passageChars`). */
  jurorPassageChars: 1200,
  /** An advocate's one-line justification of each evidence item, as the jurors read it (config.json `advocateNoteChars`). */
  advocateNoteChars: 300,
  /** The advocate's fallback compile call lists only its top candidates by evidence score (config.json `compileCandidates`)… */
  compileCandidates: 30,
  /** …each as a snippet of this many characters (config.json `compileSnippetChars`). */
  compileSnippetChars: 300,
  /**
   * An advocate's search tool returns each hit as a query-aware snippet of at most this many
   * characters, its "…" cut marks included (retrieval/tools/snippet.ts; config.json
   * `searchSnippetChars`, `searchSnippetMarks`): the advocate picks its evidence
   * from these; the jurors then read the passages themselves (jurorPassageChars).
   */
  searchSnippetChars: 600,
  /** The baselines' multiple-choice prompt (RAG and oracle): characters of each passage (config.json `passageChars`). */
  baselinePassageChars: 2000,
} as const;

/** What config.json records of CASE_PROMPT_LIMITS for an LLM CASE run. */
export function casePromptLimitsConfig(): Record<string, number | string> {
  const l = CASE_PROMPT_LIMITS;
  return {
    passageChars: l.jurorPassageChars,
    advocateNoteChars: l.advocateNoteChars,
    compileCandidates: l.compileCandidates,
    compileSnippetChars: l.compileSnippetChars,
    searchSnippetChars: l.searchSnippetChars,
    // the snippet's "… " / " …" marks count within searchSnippetChars (an older lexcase added them beyond it)
    searchSnippetMarks: SNIPPET_MARKS,
  };
}
