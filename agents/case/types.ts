/** Records the CASE pipeline passes between its stages and writes into each question's trace. */
import type { PresentationRecord } from '../common/presentation-order.js';
import type { DroppedPickReason } from './dropped-picks.js';

/** A competing claim an advocate argues for. `letter` is the option it stands for (null if none). */
export interface Hypothesis {
  /** Stable key within a question: "A".."D" for direct hypotheses, "H1".. for exploratory ones. */
  key: string;
  text: string;
  letter: string | null;
  /** Exploratory: the options it is equally close to (a tie, map-hypotheses.ts), so `letter` is null. */
  tiedLetters?: string[];
}

/** One tool call an advocate made: which tool, the query it sent, and the passage ids it got back. */
export interface ToolCallRecord {
  tool: string;
  query: string;
  ids: string[];
  /** Model step (1-based) that issued the call; 0 for offline retrieval. */
  step: number;
  /** Rewritten query text, for rewrite_query. */
  output?: string;
  error?: string;
  /** The same tool and arguments as an earlier call of the same reply: run once, answered with that call's result, its passages not scored again (ids empty). */
  repeated?: true;
  /** A tool the advocate was not offered (another spelling: "Search_BM25", "bm25" for bm25_search): refused, never ran (the model is told so in `error`). */
  notOffered?: true;
}

export interface EvidenceItem {
  id: string;
  /** Comparable evidence score (reciprocal-rank based; see docs/case.md "Scores"). */
  score: number;
  justification: string;
  /** The note's length (whitespace collapsed) when `justification` is its first CASE_PROMPT_LIMITS.advocateNoteChars characters, cut ("…"). */
  noteCutFrom?: number;
  /** Passage text (shown to jurors); absent when the doc store has no text for the id. */
  text?: string;
}

/**
 * A pick the advocate dropped (DROPPED_PICK_REASONS, dropped-picks.ts): one naming no handle it was shown
 * ("P99", a passage id spelled out; `id` as written), a handle no tool returned to it, or a passage picked
 * after it already had its k. Listed once; `times`, when the same pick was written more than once.
 */
export interface RejectedPick {
  id: string;
  reason: DroppedPickReason;
  /** How many times the model wrote this pick, when more than once (each one counted among the unresolved citations when it names no handle). */
  times?: number;
}

export interface AdvocateResult {
  hypothesis: Hypothesis;
  stance: 'for' | 'against';
  evidence: EvidenceItem[];
  toolCalls: ToolCallRecord[];
  /** Ids of the advocate's picks it dropped, each once: ones naming no handle it was shown, ones no tool ever returned to it (evidence must come from tools) and ones beyond its k. */
  rejectedIds: string[];
  /** The same picks with the reason each was dropped (LLM advocates; absent offline, where nothing is picked). */
  rejected?: RejectedPick[];
  /** Model calls of the tool loop (not the note a limit appends when it ends it, nor the compile call after a limit). */
  steps: number;
  /** Why the loop stopped: "final" answer, "step-limit", "token-limit", or "offline". */
  stop: 'final' | 'step-limit' | 'token-limit' | 'offline';
  tokens: number;
  /** The advocate's own analysis text, when it gave one. */
  analysis?: string;
  /** Offline only: per retrieval method, the mean raw score of its top-k hits for this advocate's query. */
  retrievalScores?: Record<string, number>;
  error?: string;
  /**
   * Which step `error` is of (ADVOCATE_STEP_FAILURES): "compile", the compile call failed after its
   * retry (a structured-output failure; the evidence fell back to scores); "no passages", the final
   * reply selected nothing while no tool returned a passage (nothing to compile from).
   */
  failedStep?: keyof typeof ADVOCATE_STEP_FAILURES;
  /** The final reply's text (cut at 2,000 characters, marked) when it had no parseable selection and no tool returned a passage. */
  raw?: string;
}

/** The `stepFailures` label of each failed step an advocate records (results.jsonl, the report's failed steps). */
export const ADVOCATE_STEP_FAILURES = {
  compile: 'advocate evidence selection',
  'no passages': 'advocate reply without selection or passages',
} as const;

export type Vote = string; // "A".."D"

export interface JurorRecord {
  persona: string;
  reasoning: string;
  /** null = abstained (unparseable output twice). */
  vote: Vote | null;
  abstained: boolean;
  error?: string;
  raw?: string[];
  /** Tool calls whose arguments were not valid JSON (structuredOutput "tool"). */
  invalidToolCalls?: { name?: string; args?: string; error?: string }[];
  tokens: number;
}

export interface VerdictRecord {
  answer: string | null;
  /** "offline": chosen by the offline evidence-score solver (no jury). "high": every juror voted the winner; "low": a strict majority/plurality that is not unanimous; "tie": the tie rule decided. */
  confidence: 'high' | 'low' | 'tie' | 'none' | 'offline';
  tally: Record<string, number>;
  /**
   * How a tie was broken: the evidence score, a seeded draw among the letters it left tied (`draw`:
   * the letters in drawn order, the winner first, and the draw's seed). `lowest-letter` is only
   * read from runs recorded before the offline solvers drew too.
   */
  tieBreak?: { tied: string[]; by: 'evidence-score' | 'seeded-draw' | 'lowest-letter'; scores: Record<string, number>; draw?: PresentationRecord };
}
