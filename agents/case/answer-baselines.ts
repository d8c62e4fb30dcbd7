/**
 * Trivial answer baselines that the offline solvers must be read against (accuracy with a 95%
 * bootstrap CI over questions): chance (expected accuracy of a uniform guess among the non-empty
 * options), always-A, and the longest option (ties → lowest letter).
 */
import type { Question } from '../../corpora/types.js';
import { bootstrapCi } from '../../eval/bootstrap.js';
import { directHypotheses } from './hypotheses-direct.js';

export interface BaselineRate {
  name: string;
  rate: number;
  ci: { lo: number; hi: number };
}

export function answerBaselines(questions: readonly Question[], seed = 13): BaselineRate[] {
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
    const c = bootstrapCi(v, { seed, iterations: 2000 });
    return { name, rate: c.estimate, ci: { lo: c.lo, hi: c.hi } };
  };
  return [row('chance (uniform guess)', chance), row('always A', alwaysA), row('longest option', longest)];
}

export function answerBaselinesMarkdown(rows: BaselineRate[]): string {
  return rows.map((r) => `| ${r.name} | ${(100 * r.rate).toFixed(1)}% [${(100 * r.ci.lo).toFixed(1)}, ${(100 * r.ci.hi).toFixed(1)}] |`).join('\n');
}
