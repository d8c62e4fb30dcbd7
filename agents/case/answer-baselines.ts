/**
 * Trivial answer baselines that the offline solvers must be read against, each with its 95% interval
 * from eval/stats: chance (expected accuracy of a uniform guess among the non-empty options — a
 * mean of graded per-question values: bootstrap), always-A and the longest option — proportions:
 * Wilson. Options equally long at the top are decided by the item's seeded draw among them, as the
 * offline solvers' ties are (majority-vote.ts `tieDraw`, item seed deriveSeed(seed, question id)),
 * and the row says how many (`ties`); before 2026-12-01 the lowest letter won, towards option A
 * (Bar Exam QA train: 32 such questions, 11 of them right that way where a draw expects 8).
 */
import type { Question } from '../../corpora/types.js';
import { figureText, methodLabel, perItemInterval } from '../../eval/stats/index.js';
import { deriveSeed } from '../../core/rng.js';
import { directHypotheses } from './hypotheses-direct.js';
import { tieDraw } from './majority-vote.js';

export interface BaselineRate {
  name: string;
  rate: number;
  /** null below n = 10 for the (bootstrapped) chance row. */
  ci: { lo: number | null; hi: number | null };
  /** "30.6% [23.2, 39.2]" and its method ("95% Wilson"); chance over questions that all have 4 options is exactly 25% on every question: "25.0% (exact)", method "exact: 1 of 4 options on every question", no interval. */
  text: string;
  method: string;
  /** Questions whose answer came from a seeded draw among tied options (the longest option: equally long ones). */
  ties?: number;
}

/**
 * `seed` and `iterations` are the bootstrap's (`lexcase demo --seed/--iterations`): they reach the
 * chance row only when its per-question values differ (questions with different numbers of
 * options); an exact chance and the Wilson rows use neither.
 */
export function answerBaselines(questions: readonly Question[], seed = 13, iterations?: number): BaselineRate[] {
  const chance: number[] = [];
  const alwaysA: number[] = [];
  const longest: number[] = [];
  let longestTies = 0;
  for (const q of questions) {
    const hs = directHypotheses(q);
    chance.push(hs.length ? 1 / hs.length : 0);
    alwaysA.push(q.answer === 'A' ? 1 : 0);
    const most = Math.max(0, ...hs.map((h) => h.text.length));
    const tied = hs.filter((h) => h.text.length === most).map((h) => h.letter!);
    if (tied.length > 1) longestTies++;
    const pick = tied.length > 1 ? tieDraw(tied, deriveSeed(seed, q.id)).order[0] : tied[0];
    longest.push(pick !== undefined && pick === q.answer ? 1 : 0);
  }
  const row = (name: string, v: number[]): BaselineRate => {
    const c = perItemInterval(v, { seed, ...(iterations === undefined ? {} : { iterations }) });
    return { name, rate: c.estimate, ci: { lo: c.lo, hi: c.hi }, text: figureText(c, 'percent'), method: methodLabel(c) };
  };
  // Every question with the same number of options: chance is that one value on every question, an
  // exact expectation, not an estimate with a spread to put an interval on.
  const exact = chance.length > 0 && chance.every((v) => v === chance[0]) && chance[0] > 0;
  const chanceRow: BaselineRate = exact
    ? {
        name: 'chance (uniform guess)',
        rate: chance[0],
        ci: { lo: null, hi: null },
        text: `${(100 * chance[0]).toFixed(1)}% (exact)`,
        method: `exact: 1 of ${Math.round(1 / chance[0])} options on every question`,
      }
    : row('chance (uniform guess)', chance);
  const longestRow = row(longestTies ? `longest option (${longestTies} ${longestTies === 1 ? 'tie' : 'ties'} drawn)` : 'longest option', longest);
  return [chanceRow, row('always A', alwaysA), { ...longestRow, ties: longestTies }];
}

export function answerBaselinesMarkdown(rows: BaselineRate[]): string {
  return rows.map((r) => `| ${r.name} | ${r.text} | ${r.method} |`).join('\n');
}
