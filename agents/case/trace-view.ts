/** Compact, JSON-able views of stage results for the per-question trace. */
import { cutFrom, truncate } from '../common/question-text.js';
import type { AdvocateResult } from './types.js';

/** `passageChars`: the characters of each evidence passage the jurors read (LLM CASE); an evidence item longer than that is marked `cutFrom`, its length. */
export function advocateTrace(a: AdvocateResult, passageChars?: number) {
  return {
    key: a.hypothesis.key,
    letter: a.hypothesis.letter,
    hypothesis: a.hypothesis.text,
    stance: a.stance,
    stop: a.stop,
    steps: a.steps,
    tokens: a.tokens,
    ...(a.analysis ? { analysis: a.analysis } : {}),
    toolCalls: a.toolCalls,
    evidence: a.evidence.map((e) => ({
      id: e.id,
      score: e.score,
      justification: e.justification,
      ...(e.noteCutFrom !== undefined ? { noteCutFrom: e.noteCutFrom } : {}),
      snippet: truncate((e.text ?? '').replace(/\s+/g, ' '), 240),
      ...withCut(e.text ?? '', passageChars),
    })),
    ...(a.rejectedIds.length ? { rejectedIds: a.rejectedIds } : {}),
    // always written for an LLM advocate (empty when nothing was dropped): the report counts it, and a trace without it is from before the count
    ...(a.rejected ? { rejected: a.rejected } : {}),
    ...(a.retrievalScores ? { retrievalScores: a.retrievalScores } : {}),
    ...(a.error ? { error: a.error } : {}),
    // the reply the advocate could not use (a tool call written as text, an empty reply), cut: the reason beside its error
    ...(a.raw !== undefined ? { raw: a.raw } : {}),
    ...(a.failedStep ? { failedStep: a.failedStep } : {}),
  };
}

function withCut(text: string, passageChars: number | undefined): { cutFrom?: number } {
  const n = passageChars === undefined ? undefined : cutFrom(text, passageChars);
  return n !== undefined ? { cutFrom: n } : {};
}

/** Summed evidence score per option letter (tie-break input). */
export function evidenceScoreByLetter(advocates: AdvocateResult[]): Record<string, number> {
  const s: Record<string, number> = {};
  for (const a of advocates) {
    const l = a.hypothesis.letter;
    if (!l) continue;
    s[l] = (s[l] ?? 0) + a.evidence.reduce((t, e) => t + e.score, 0);
  }
  return s;
}
