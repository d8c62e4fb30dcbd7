/**
 * Cross-advocate de-duplication of offline evidence (QueryPlan.share): the four advocates of a
 * question often fuse the same passages to the top, spending their k slots on one passage. With
 * `share` = s, every (advocate, passage) pair is taken in order of fused score (ties: earlier
 * advocate, then id), and a passage goes into an advocate's evidence only while that advocate has
 * fewer than k and fewer than s advocates already hold the passage — so each passage lands with the
 * advocate(s) that rank it highest and the others move on to their next candidates. Each advocate
 * still keeps k passages of its own list. Train/val figures: docs/case.md.
 */
import type { AdvocateResult } from './types.js';

export function shareEvidence(advocates: AdvocateResult[], k: number, share: number): AdvocateResult[] {
  const pairs = advocates.flatMap((a, i) => a.evidence.map((e) => ({ i, e })));
  pairs.sort((x, y) => y.e.score - x.e.score || x.i - y.i || (x.e.id < y.e.id ? -1 : x.e.id > y.e.id ? 1 : 0));
  const held = new Map<string, number>();
  const chosen = advocates.map(() => [] as AdvocateResult['evidence']);
  for (const { i, e } of pairs) {
    if (chosen[i].length >= k || (held.get(e.id) ?? 0) >= share) continue;
    chosen[i].push(e);
    held.set(e.id, (held.get(e.id) ?? 0) + 1);
  }
  return advocates.map((a, i) => ({ ...a, evidence: chosen[i] }));
}
