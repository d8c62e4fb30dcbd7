/**
 * The offline evidence-score solver: picks the hypothesis whose evidence scores highest.
 *
 * Score normalisation: fused RRF scores are rank-based, so every advocate's own top passage scores
 * about the same; they cannot rank hypotheses. The solver therefore uses each retriever's raw
 * scores: for method m and hypothesis h, s_m(h) = mean raw score of the top-k hits for the query
 * facts + question + h. Raw scales differ between methods (BM25 ~ tens, QLD log-probabilities,
 * cosine ≤ 1), so s_m is min-max normalised across the question's hypotheses (best → 1, worst → 0;
 * all equal → 0), and the hypothesis score is the mean over methods. Ties go to the lowest letter.
 */
import type { AdvocateResult, VerdictRecord } from './types.js';

export function evidenceScoreVerdict(advocates: AdvocateResult[]): VerdictRecord & { normalised: Record<string, number> } {
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
  const sorted = [...letters].sort((a, b) => normalised[b] - normalised[a] || (a < b ? -1 : 1));
  const answer = sorted[0] ?? null;
  const tally = Object.fromEntries(letters.map((l) => [l, normalised[l]]));
  const tied = answer ? letters.filter((l) => normalised[l] === normalised[answer]) : [];
  return {
    answer,
    confidence: answer === null ? 'none' : tied.length > 1 ? 'tie' : 'offline',
    tally,
    ...(tied.length > 1 ? { tieBreak: { tied: tied.sort(), by: 'lowest-letter' as const, scores: tally } } : {}),
    normalised,
  };
}
