/**
 * Majority vote with a defined tie rule (docs/case.md "Jury"):
 * - Abstentions (null votes) are not counted.
 * - The letter with the most votes wins. Confidence is "high" when every juror on the panel voted
 *   for it (unanimous, no abstention), "low" when it won a strict plurality without unanimity
 *   (2–1, 2–0 with an abstention, or 1–0 with two abstentions).
 * - A tie for the most votes (1–1–1, 1–1 with an abstention) is broken by the summed evidence
 *   score of each tied letter's advocate(s), compared at 10 significant digits (`comparedEvidenceScore`:
 *   the same passages at the same ranks, listed in another order, sum to floats that differ in the
 *   last bit, which before 2026-12-01 decided the tie); if those are equal too, by a seeded draw among the
 *   letters still tied (the item's seed: deriveSeed(seed, "tie-break:")), recorded in `tieBreak`
 *   (`draw`) — the paper gives no tie rule, and "the lowest letter" would favour option A.
 *   Confidence "tie".
 * - No valid vote at all (every juror abstained: unparseable output) gives no answer (confidence
 *   "none"): the item fails, it is never decided by a tie-break over options nobody voted for.
 */
import { writtenScore } from '../../retrieval/top-k.js';
import { seededOrder, type PresentationRecord } from '../common/presentation-order.js';
import type { VerdictRecord, Vote } from './types.js';

/** The significant digits summed evidence scores are compared at (JURY_TIE_RULE). */
export const EVIDENCE_SCORE_DIGITS = 10;

/**
 * How CASE's jury breaks a tie, recorded in an LLM run's config.json (`juryTieRule`): a run dir an
 * older lexcase started compared the float sums exactly, so a tie between letters with the same
 * evidence could go to the letter whose advocate listed it in rank order instead of the seeded draw;
 * its resume warns (eval/resume-unrecorded.ts).
 */
export const JURY_TIE_RULE = `summed evidence score at ${EVIDENCE_SCORE_DIGITS} significant digits, then a seeded draw`;

/**
 * A letter's summed evidence score as the tie rule compares it: 10 significant digits, as a hybrid's
 * run file writes fused scores (retrieval/top-k.ts writtenScore), so that sums of the same
 * reciprocal-rank scores in another order (equal but for the float's last bits) tie.
 */
export const comparedEvidenceScore = (score: number): number => writtenScore(score, EVIDENCE_SCORE_DIGITS);

export function majorityVote(votes: (Vote | null)[], candidates: string[], evidenceScore: Record<string, number> = {}, seed = 0): VerdictRecord {
  const tally: Record<string, number> = {};
  for (const c of candidates) tally[c] = 0;
  for (const v of votes) if (v !== null) tally[v] = (tally[v] ?? 0) + 1;
  const letters = Object.keys(tally).sort();
  if (letters.length === 0 || votes.every((v) => v === null)) return { answer: null, confidence: 'none', tally };
  const max = Math.max(...letters.map((l) => tally[l]));
  const top = letters.filter((l) => tally[l] === max);
  if (top.length === 1) {
    const unanimous = votes.length > 0 && votes.every((v) => v === top[0]);
    return { answer: top[0], confidence: unanimous ? 'high' : 'low', tally };
  }
  const scores: Record<string, number> = {};
  for (const l of top) scores[l] = comparedEvidenceScore(evidenceScore[l] ?? 0);
  const best = Math.max(...top.map((l) => scores[l]));
  const byScore = top.filter((l) => scores[l] === best);
  if (byScore.length === 1) return { answer: byScore[0], confidence: 'tie', tally, tieBreak: { tied: top, by: 'evidence-score', scores } };
  const draw = tieDraw(byScore, seed);
  return { answer: draw.order[0], confidence: 'tie', tally, tieBreak: { tied: top, by: 'seeded-draw', scores, draw } };
}

/** The item's seeded draw among tied letters (kind "tie-break", the winner first): the one tie rule of CASE's jury and offline solvers. */
export function tieDraw(tied: readonly string[], seed: number): PresentationRecord {
  return seededOrder(tied, (l) => l, { seed, kind: 'tie-break' }).record;
}
