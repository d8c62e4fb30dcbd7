/**
 * The offline evidence-score solver: picks the hypothesis whose evidence scores highest.
 *
 * Score normalisation: fused RRF scores are rank-based, so every advocate's own top passage scores
 * about the same; they cannot rank hypotheses. The solver therefore uses each retriever's raw
 * scores: for method m and hypothesis h, s_m(h) = mean raw score of the top-k hits for the query
 * facts + question + h. Raw scales differ between methods (BM25 ~ tens, QLD log-probabilities,
 * cosine ≤ 1), so s_m is min-max normalised across the question's hypotheses (best → 1, worst → 0;
 * all equal → 0), and the hypothesis score is the mean over methods. An exact tie is broken by the
 * item's seeded draw among the tied letters (majority-vote.ts `tieDraw`, kind "tie-break"), recorded
 * in `tieBreak.draw` — never the lowest letter, which would favour option A.
 */
import { tieDraw } from './majority-vote.js';
import type { AdvocateResult, VerdictRecord } from './types.js';

export function evidenceScoreVerdict(advocates: AdvocateResult[], seed = 0): VerdictRecord & { normalised: Record<string, number> } {
  const letters = advocates.map((a) => a.hypothesis.letter).filter((l): l is string => !!l);
  const methods = [...new Set(advocates.flatMap((a) => Object.keys(a.retrievalScores ?? {})))];
  const normalised: Record<string, number> = {};
  for (const a of advocates) if (a.hypothesis.letter) normalised[a.hypothesis.letter] = 0;
  for (const m of methods) {
    const vals = advocates.map((a) => a.retrievalScores?.[m] ?? Number.NaN);
    const finite = vals.filter(Number.isFinite);
    const lo = Math.min(...finite);
    const hi = Math.max(...finite);
    advocates.forEach((a, i) => {
      if (!a.hypothesis.letter || !Number.isFinite(vals[i])) return;
      normalised[a.hypothesis.letter] += hi > lo ? (vals[i] - lo) / (hi - lo) / methods.length : 0;
    });
  }
  const tally = Object.fromEntries(letters.map((l) => [l, normalised[l]]));
  const best = letters.length ? Math.max(...letters.map((l) => normalised[l])) : 0;
  const tied = letters.filter((l) => normalised[l] === best).sort();
  const draw = tied.length > 1 ? tieDraw(tied, seed) : undefined;
  const answer = draw ? draw.order[0] : (tied[0] ?? null);
  return {
    answer,
    confidence: answer === null ? 'none' : draw ? 'tie' : 'offline',
    tally,
    ...(draw ? { tieBreak: { tied, by: 'seeded-draw' as const, scores: tally, draw } } : {}),
    normalised,
  };
}
