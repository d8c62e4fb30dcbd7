/**
 * Trivial answer baselines that the offline solvers must be read against, each with its 95% interval
 * from eval/stats: chance (expected accuracy of a uniform guess among the non-empty options — a
 * mean of graded per-question values: bootstrap), always-A and the longest option (ties → lowest
 * letter) — proportions: Wilson.
 */
import type { Question } from '../../corpora/types.js';
import { figureText, methodLabel, perItemInterval } from '../../eval/stats/index.js';
import { directHypotheses } from './hypotheses-direct.js';

export interface BaselineRate {
  name: string;
  rate: number;
  /** null below n = 10 for the (bootstrapped) chance row. */
  ci: { lo: number | null; hi: number | null };
  /** "30.6% [23.2, 39.2]" and its method ("95% Wilson"); chance over questions that all have 4 options is exactly 25% on every question: "25.0% (exact)", method "exact: 1 of 4 options on every question", no interval. */
  text: string;
  method: string;
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
  for (const q of questions) {
    const hs = directHypotheses(q);
    chance.push(hs.length ? 1 / hs.length : 0);
    alwaysA.push(q.answer === 'A' ? 1 : 0);
    const best = hs.reduce<(typeof hs)[number] | undefined>((a, h) => (!a || h.text.length > a.text.length ? h : a), undefined);
    longest.push(best?.letter === q.answer ? 1 : 0);
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
  return [chanceRow, row('always A', alwaysA), row('longest option', longest)];
}

export function answerBaselinesMarkdown(rows: BaselineRate[]): string {
  return rows.map((r) => `| ${r.name} | ${r.text} | ${r.method} |`).join('\n');
}
