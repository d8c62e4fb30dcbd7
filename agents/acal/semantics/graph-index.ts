/**
 * Validated adjacency for a QBAF: incoming supporters/attackers per node, and a topological
 * order when the graph is acyclic (Kahn's algorithm, ties broken by node order so results are
 * deterministic).
 */
import { errors } from '../../../core/errors.js';
import type { Qbaf } from './types.js';

export interface GraphIndex {
  ids: string[];
  base: Map<string, number>;
  supporters: Map<string, string[]>;
  attackers: Map<string, string[]>;
  /** Topological order (sources first), or null when the graph has a cycle. */
  order: string[] | null;
}

export function indexQbaf(qbaf: Qbaf): GraphIndex {
  const ids: string[] = [];
  const base = new Map<string, number>();
  for (const [i, n] of qbaf.nodes.entries()) {
    if (base.has(n.id)) throw errors.invalidInput(`qbaf.nodes[${i}].id`, `duplicate node id "${n.id}"`);
    if (!Number.isFinite(n.base) || n.base < 0 || n.base > 1)
      throw errors.invalidInput(`qbaf.nodes[${i}].base`, `base strength of "${n.id}" must be in [0, 1], got ${n.base}`);
    ids.push(n.id);
    base.set(n.id, n.base);
  }
  const supporters = new Map(ids.map((id) => [id, [] as string[]]));
  const attackers = new Map(ids.map((id) => [id, [] as string[]]));
  const children = new Map(ids.map((id) => [id, [] as string[]]));
  const indeg = new Map(ids.map((id) => [id, 0]));
  for (const [i, e] of qbaf.edges.entries()) {
    if (!base.has(e.from)) throw errors.invalidInput(`qbaf.edges[${i}].from`, `unknown node "${e.from}"`);
    if (!base.has(e.to)) throw errors.invalidInput(`qbaf.edges[${i}].to`, `unknown node "${e.to}"`);
    if (e.kind !== 'support' && e.kind !== 'attack')
      throw errors.invalidInput(`qbaf.edges[${i}].kind`, `must be "support" or "attack", got "${String(e.kind)}"`);
    (e.kind === 'support' ? supporters : attackers).get(e.to)!.push(e.from);
    children.get(e.from)!.push(e.to);
    indeg.set(e.to, indeg.get(e.to)! + 1);
  }
  const order: string[] = [];
  const ready = ids.filter((id) => indeg.get(id) === 0);
  while (ready.length) {
    const id = ready.shift()!;
    order.push(id);
    for (const c of children.get(id)!) {
      const d = indeg.get(c)! - 1;
      indeg.set(c, d);
      if (d === 0) ready.push(c);
    }
  }
  return { ids, base, supporters, attackers, order: order.length === ids.length ? order : null };
}
