/**
 * Seeded, recorded presentation order (issue 36, item 4). Wherever a paper does not fix the order in
 * which a model is shown competing things — which side of a clash is "A", which brief a judge reads
 * first, which option list order a selector sees — a fixed order would show one side first every
 * time, and a position-biased model would favour it. Here the order is drawn from the item's seed
 * (ctx.seed = deriveSeed(run seed, item id)) and the place it is used, so a rerun shows the same
 * order, and every draw is recorded in the item's trace (`presentation`) and counted in the run's
 * report (eval/report/sections/presentation.ts). docs/validity.md lists every such order.
 *
 *   const { items, record } = seededOrder(briefs, (b) => b.letter, { seed: ctx.seed, kind: 'judge briefs' });
 *   trace.presentation.push(record);
 */
import { createRng, deriveSeed } from '../../core/rng.js';

/** One seeded draw, as an item's trace records it (`trace.presentation[]`). */
export interface PresentationRecord {
  /** What was ordered: "clash sides", "judge briefs", "tie-break", … (the report counts per kind). */
  kind: string;
  /** Which instance, when an item has several ("s1~a2", "round 2", …). */
  at?: string;
  /** The labels in the order shown (a tie-break: the winner first). */
  order: string[];
  /** What the report counts for this draw (default order[0]): "support" for a clash that showed the supporting argument as A. */
  first?: string;
  /** The seed of the draw: deriveSeed(item seed, "<kind>:<at>"). */
  seed: number;
}

/** The seed of one draw: the item's seed and the place it is used. */
export function drawSeed(itemSeed: number, kind: string, at = ''): number {
  return deriveSeed(itemSeed, `${kind}:${at}`);
}

/** `items` in a seeded order (Fisher–Yates), with the record of the draw. */
export function seededOrder<T>(
  items: readonly T[],
  label: (t: T) => string,
  o: { seed: number; kind: string; at?: string; first?: (shown: T[]) => string },
): { items: T[]; record: PresentationRecord } {
  const seed = drawSeed(o.seed, o.kind, o.at);
  const shown = createRng(seed).shuffle(items);
  const record: PresentationRecord = {
    kind: o.kind,
    ...(o.at !== undefined ? { at: o.at } : {}),
    order: shown.map(label),
    ...(o.first ? { first: o.first(shown) } : {}),
    seed,
  };
  return { items: shown, record };
}
