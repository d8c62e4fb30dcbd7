/**
 * The p-value of `lexcase compare`'s paired swap test of a macro-F1 difference (eval/metrics/macro-swap.ts)
 * against a reference lexcase did not write: scipy.stats.permutation_test(permutation_type='samples',
 * two-sided) with a macro-F1-difference statistic (./macro-swap-agreement.py), on the same paired
 * predictions over LegalBench hearsay's test items (the bundled file). Where both enumerate every swap
 * (14 items: 2^14 arrangements) the two p-values are the same number (to 1e-12); on all 94 items scipy
 * draws 10,000 random swap vectors (lexcase too where over 20 items differ; another generator), and the
 * two agree within Monte-Carlo error. The table of
 * both p-values, side by side, is printed and is in every failure message.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/version.js';
import { macroF1SwapTest } from '../metrics/macro-swap.js';
import { PERMUTATIONS } from '../stats/index.js';
import { pythonReference } from './stats-agreement.js';

const have = pythonReference();
const why = have.ok ? 'python3 with numpy and scipy' : `skipped: ${have.reason}`;

interface Item {
  answer: string;
  text: string;
  slice: string;
}
const HEARSAY: Item[] = readFileSync(join(PACKAGE_ROOT, 'corpora/data/legalbench/hearsay/test.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const LABELS = ['Yes', 'No'];

// two keyword rules of the kind a prompt-less baseline uses: A says Yes where someone said, told or wrote something;
// B refines it (a statement in court, a nod or a gesture is no hearsay; a letter or an email is). Bf is B failing
// (no prediction) on every 6th item, so more than 20 items differ (Monte Carlo on both sides).
const A = (x: Item) => (/\b(said|says|told|tells|wrote|stated|announced|testif)/i.test(x.text) ? 'Yes' : 'No');
const B = (x: Item) =>
  /\b(testif|in court|on the stand|nodded|pointed)/i.test(x.text)
    ? 'No'
    : /\b(said|says|told|tells|wrote|stated|announced|shouted|yelled|asked|letter|email)/i.test(x.text)
      ? 'Yes'
      : 'No';
const Bf = (x: Item, i: number) => (i % 6 === 5 ? null : B(x));

interface Case {
  name: string;
  gold: string[];
  a: (string | null)[];
  b: (string | null)[];
  resamples: number | null;
}
function caseOf(name: string, items: Item[], offset: number, b: (x: Item, i: number) => string | null, resamples: number | null): Case {
  return { name, gold: items.map((x) => x.answer), a: items.map(A), b: items.map((x, i) => b(x, i + offset)), resamples };
}
const CASES: Case[] = [
  ...[20, 25, 30, 45, 50].map((o) => caseOf(`hearsay items ${o}–${o + 13}, A vs B (exact)`, HEARSAY.slice(o, o + 14), o, B, null)),
  caseOf('hearsay items 60–73, A vs Bf (exact)', HEARSAY.slice(60, 74), 60, Bf, null),
  caseOf('all 94 hearsay items, A vs B (10,000 resamples in scipy)', HEARSAY, 0, B, PERMUTATIONS),
  caseOf('all 94 hearsay items, A vs Bf (10,000 swaps each)', HEARSAY, 0, Bf, PERMUTATIONS),
];

describe.skipIf(!have.ok)(`the macro-F1 swap test's p agrees with scipy.stats.permutation_test (${why})`, () => {
  it('the same p where both enumerate every arrangement (1e-12), within Monte-Carlo error on 10,000 random swaps each', () => {
    const ref = spawnSync('python3', [join(PACKAGE_ROOT, 'eval/reference/macro-swap-agreement.py')], {
      input: JSON.stringify({ cases: CASES.map((c) => ({ ...c, labels: LABELS })) }),
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    expect(ref.status, ref.stderr).toBe(0);
    const scipy = JSON.parse(ref.stdout) as { name: string; p: number; exact: boolean; resamples: number }[];
    const rows = CASES.map((c, i) => {
      const ours = macroF1SwapTest(c.gold, c.a, c.b, LABELS);
      const p = scipy[i].p;
      // Monte Carlo: lexcase's p = (count + 1) / (B + 1) has a standard error of sqrt(p(1 − p) / B); scipy's two-sided
      // p = 2·min(tail) one of 2·sqrt(q(1 − q) / B), q = p / 2 — 4.5 standard errors of their difference, plus lexcase's +1
      const seOurs = ours.exact ? 0 : Math.sqrt((ours.p * (1 - ours.p)) / ours.resamples);
      const q = Math.min(0.5, p / 2);
      const seScipy = scipy[i].exact ? 0 : 2 * Math.sqrt((q * (1 - q)) / scipy[i].resamples);
      const tolerance = c.resamples === null ? 1e-12 : 4.5 * Math.hypot(seOurs, seScipy) + 2 / (PERMUTATIONS + 1);
      // scipy enumerates where asked to (resamples null), lexcase wherever at most 20 items differ
      return { name: c.name, lexcase: ours, scipy: scipy[i], diff: Math.abs(ours.p - p), tolerance };
    });
    const table = [
      '| case | differing items | lexcase p | scipy p | |Δ| | tolerance |',
      '| --- | --: | --: | --: | --: | --: |',
      ...rows.map(
        (r) =>
          `| ${r.name} | ${r.lexcase.m} | ${r.lexcase.p.toFixed(6)} (${r.lexcase.exact ? 'exact' : `${r.lexcase.resamples} swaps`}) | ${r.scipy.p.toFixed(6)} (${r.scipy.exact ? 'exact' : `${r.scipy.resamples} resamples`}) | ${r.diff.toExponential(2)} | ${r.tolerance.toExponential(2)} |`,
      ),
    ].join('\n');
    console.log(table);
    for (const r of rows) {
      if (r.scipy.exact) expect(r.lexcase.exact, `${r.name}\n${table}`).toBe(true);
      expect(r.diff, `${r.name}\n${table}`).toBeLessThanOrEqual(r.tolerance);
    }
    // the cases are not all trivial: p-values from 0.125 to 1, differing items in every case, Monte Carlo on both sides in one
    expect(rows.some((r) => r.lexcase.p < 0.2)).toBe(true);
    expect(rows.some((r) => r.lexcase.p > 0.4 && r.lexcase.p < 1)).toBe(true);
    expect(rows.some((r) => !r.lexcase.exact && !r.scipy.exact)).toBe(true);
    for (const r of rows) expect(r.lexcase.m, r.name).toBeGreaterThan(0);
  }, 300_000);
});
