/**
 * Macro-F1's paired statistic, the way `lexcase compare` compares two runs' macro-F1 on the same items
 * (declared on the macro-F1 headline metric, eval/headline-metrics.ts `paired`): the report's macro-F1
 * (./macro.ts, over the task's labels, a failed item scored as no prediction) of each run on the
 * paired items, the difference B − A with the paired bootstrap of that same code (its seed and
 * resamples, items resampled jointly in id order), and the p-value of the paired swap test
 * (./macro-swap.ts: exact up to EXACT_FLIP_MAX differing items, else PERMUTATIONS seeded swaps).
 */
import { EXACT_FLIP_MAX, intervalTestDisagreement, NO_ITEM_DIFFERS, NO_SPREAD, PERMUTATIONS, RESAMPLES, SEED, type PairedDifference } from '../stats/index.js';
import type { ResultRecord } from '../types.js';
import { correctFlags, scoredPrediction } from './failures.js';
import { labelsWithoutGold, limitPrefixClause, macroCeilingNote, pairedMacroF1 } from './macro.js';
import { macroF1SwapTest } from './macro-swap.js';

/** What the macro-F1 row of a comparison is, in words (the comparison's note). */
export const MACRO_PAIRED_NOTE =
  "macro-F1: over every shared item and the task's labels as in report.md (a failed item is no prediction), its interval that report's bootstrap over items with each resample drawing the same items for A and B; " +
  `p from the paired swap test (each item's two predictions swapped at random; two-sided; exact up to ${EXACT_FLIP_MAX} items where the runs' predictions differ, else ${PERMUTATIONS.toLocaleString('en-US')} seeded swaps).`;

export function macroF1Paired(
  pairs: readonly (readonly [ResultRecord, ResultRecord])[],
  o: { labels?: readonly string[]; seed?: number; iterations?: number; limit?: number } = {},
): PairedDifference & { over?: string } {
  const m = pairedMacroF1(pairs, { labels: o.labels, seed: o.seed, iterations: o.iterations });
  const right = pairs.map(([x, y]) => [correctFlags([x])[0], correctFlags([y])[0]] as const);
  const swap = macroF1SwapTest(
    pairs.map(([x]) => x.gold),
    pairs.map(([x]) => scoredPrediction(x)),
    pairs.map(([, y]) => scoredPrediction(y)),
    m.labels,
    { seed: o.seed },
  );
  const aOnly = right.filter(([x, y]) => x > y).length;
  const bOnly = right.filter(([x, y]) => x < y).length;
  const d: PairedDifference = {
    outcome: 'graded',
    n: pairs.length,
    a: m.a,
    b: m.b,
    estimate: m.b - m.a,
    lo: m.diff.lo,
    hi: m.diff.hi,
    level: m.diff.level,
    iterations: m.diff.iterations ?? o.iterations ?? RESAMPLES,
    seed: m.diff.seed ?? o.seed ?? SEED,
    // runs that predict the same on every item: "no item differs", as a per-item measure says it, not "no spread"
    ...(m.diff.missing
      ? { missing: m.diff.missing === NO_SPREAD && pairs.every(([x, y]) => scoredPrediction(x) === scoredPrediction(y)) ? NO_ITEM_DIFFERS : m.diff.missing }
      : {}),
    p: pairs.length ? swap.p : null,
    test: swap.exact ? 'swap-exact' : 'swap-monte-carlo',
    aOnly,
    bOnly,
  };
  const disagreement = intervalTestDisagreement(d);
  // a label with no gold item among the paired items caps both runs' macro-F1 below 100%: said, as report.md says it,
  // with the --limit that took the split's first items (limitPrefixClause, report.md's wording)
  const note = macroCeilingNote(
    labelsWithoutGold(
      pairs.map(([x]) => x),
      m.labels,
    ),
    m.labels,
    pairs.length,
  );
  const ceiling = note && note + limitPrefixClause(o.limit);
  return { ...d, ...(disagreement ? { disagreement } : {}), ...(ceiling ? { over: ceiling } : {}) };
}
