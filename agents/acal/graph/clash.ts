/**
 * Clash resolution (ACAL §3.2.5), the pure part. A clash is a pair (α_s, α_a) of a supporting
 * and an attacking argument that attack each other in the graph and whose base strengths differ
 * by less than δ. An LLM names the winner of each clash (see ../llm/resolve-clashes.ts); each
 * argument's win rate w over its clashes gives Δτ = β(2w − 1) (eq. 3.3), applied to the
 * ORIGINAL base strengths (order-independent), then clamped.
 */
import type { AcalArgument, AcalGraph, AcalRelation, ClashOutcome } from './types.js';

export interface ClashPair {
  support: string;
  attack: string;
}

const attacksBetween = (rels: AcalRelation[], a: string, b: string) =>
  rels.some((r) => r.kind === 'attack' && ((r.from === a && r.to === b) || (r.from === b && r.to === a)));

/** Pairs that need an arena round: opposite sides, an attack relation between them, |τs − τa| < δ. */
export function findClashes(args: AcalArgument[], relations: AcalRelation[], delta: number): ClashPair[] {
  const active = args.filter((a) => a.status !== 'rejected');
  const out: ClashPair[] = [];
  for (const s of active.filter((a) => a.side === 'support'))
    for (const a of active.filter((x) => x.side === 'attack'))
      if (attacksBetween(relations, s.id, a.id) && Math.abs(s.baseStrength - a.baseStrength) < delta - 1e-12) out.push({ support: s.id, attack: a.id });
  return out;
}

/**
 * Δτ per argument from the recorded outcomes. Outcomes whose arguments were rejected, or whose
 * attack relation a human has since removed, no longer count.
 */
export function clashDeltas(graph: Pick<AcalGraph, 'arguments' | 'relations' | 'clash'>): Record<string, number> {
  const active = new Set(graph.arguments.filter((a) => a.status !== 'rejected').map((a) => a.id));
  const tally = new Map<string, { wins: number; total: number }>();
  const bump = (id: string, won: boolean) => {
    const t = tally.get(id) ?? { wins: 0, total: 0 };
    t.total++;
    if (won) t.wins++;
    tally.set(id, t);
  };
  for (const o of countedOutcomes(graph.clash.outcomes, graph.relations, active)) {
    bump(o.support, o.winner === o.support);
    bump(o.attack, o.winner === o.attack);
  }
  const out: Record<string, number> = Object.create(null); // argument ids are keys, never prototype names
  for (const [id, t] of [...tally].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const w = t.wins / t.total;
    out[id] = graph.clash.beta * (2 * w - 1);
  }
  return out;
}

function countedOutcomes(outcomes: ClashOutcome[], relations: AcalRelation[], active: Set<string>): ClashOutcome[] {
  return outcomes.filter((o) => active.has(o.support) && active.has(o.attack) && attacksBetween(relations, o.support, o.attack));
}
