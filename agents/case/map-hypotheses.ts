/**
 * Maps exploratory hypotheses back to answer options for the vote. The paper generates exploratory
 * hypotheses "based solely on the prompt and legal context" and leaves the mapping to the jury; the
 * jury here still votes on option letters, and each hypothesis is also tied to the option it is
 * lexically closest to (Jaccard overlap of content words, ≥ 1 shared word; else null), which the tie
 * rule uses to credit evidence scores to letters and the juror's case file names ("closest to
 * option B"). Options equally close (a tie for the highest overlap) give no letter: the hypothesis is
 * credited to none and the case file says "equally close to options A, B" (`tiedLetters`). Before,
 * the first of them won — always the lowest letter, so a tie leaned towards option A. A run records
 * this rule as `hypothesisMapping` (HYPOTHESIS_MAPPING); an older exploratory run dir is refused on resume.
 */
import { LETTERS } from '../../corpora/types.js';
import type { Hypothesis } from './types.js';

const STOP = new Set(
  'a an the and or of to in on for by with is are was were be been that this it its as at from his her their he she they not no but if than then because would should could will may must has have had do does did which who whom'.split(
    ' ',
  ),
);

export function contentWords(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9']+/)
      .filter((w) => w.length > 2 && !STOP.has(w)),
  );
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const w of a) if (b.has(w)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 0 : inter / union;
}

/** How exploratory hypotheses are mapped to options, as config.json records it (eval/resume-unrecorded.ts). */
export const HYPOTHESIS_MAPPING = 'jaccard of content words, a tie maps to no option';

export function mapToOptions(texts: string[], choices: string[]): Hypothesis[] {
  const opts = choices.map((c) => contentWords(c));
  return texts.map((text, i) => {
    const words = contentWords(text);
    let best: number[] = [];
    let bestScore = 0;
    opts.forEach((o, j) => {
      if (!choices[j].trim()) return;
      const s = jaccard(words, o);
      if (s > bestScore) {
        bestScore = s;
        best = [j];
      } else if (s === bestScore && s > 0) best.push(j);
    });
    const key = `H${i + 1}`;
    if (best.length > 1) return { key, text, letter: null, tiedLetters: best.map((j) => LETTERS[j]) };
    return { key, text, letter: best.length ? LETTERS[best[0]] : null };
  });
}
