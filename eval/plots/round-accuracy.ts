/**
 * MAD: accuracy of the judge's verdict after each debate round, from traces that carry
 * `roundVerdicts` (runs with judgeEachRound) — or, failing that, the final judge only (one point
 * at the last round). Traces are read defensively: anything not shaped like a verdict is skipped.
 * The interval is Wilson's (eval/stats: a proportion; honest at the small n of a debate run).
 */
import { proportionInterval } from '../stats/index.js';
import type { RoundAccuracy } from './specs.js';

export function roundAccuracy(items: { gold: string; trace: unknown }[], _opts: { iterations?: number; seed?: number } = {}): RoundAccuracy[] {
  const byRound = new Map<number, number[]>();
  for (const { gold, trace } of items) {
    const t = (trace ?? {}) as { roundVerdicts?: unknown; judge?: { verdict?: unknown }; settings?: { rounds?: unknown } };
    const rv = Array.isArray(t.roundVerdicts) ? t.roundVerdicts : [];
    const rows: { round: number; verdict: unknown }[] = rv.filter(
      (x): x is { round: number; verdict: unknown } => !!x && typeof (x as { round?: unknown }).round === 'number',
    );
    if (rows.length === 0 && t.judge && typeof t.settings?.rounds === 'number') rows.push({ round: t.settings.rounds, verdict: t.judge.verdict });
    for (const r of rows) {
      if (!byRound.has(r.round)) byRound.set(r.round, []);
      byRound.get(r.round)!.push(r.verdict === gold ? 1 : 0);
    }
  }
  return [...byRound]
    .sort(([a], [b]) => a - b)
    .map(([round, v]) => {
      const ci = proportionInterval(
        v.reduce((a, b) => a + b, 0),
        v.length,
      );
      return { round, n: v.length, accuracy: ci.estimate, lo: ci.lo ?? 0, hi: ci.hi ?? 1 };
    });
}
