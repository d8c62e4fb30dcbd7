/**
 * An accepted reply's claims with their citations read once (PassageHandles `cite`, which counts those
 * naming no handle shown): a handle becomes its passage's real id (`cites`), any other citation stays as
 * written, apart (`unresolved`), so that no figure reads it as a passage and no prompt shows it back as one.
 */
import { passageHandles } from '../common/passage-handles.js';
import type { Claim } from './types.js';

export function citedClaims(claims: readonly { text: string; cites: readonly string[] }[]): Claim[] {
  const h = passageHandles();
  return claims.map((c) => {
    const { ids, unresolved } = h.cite(c.cites);
    return { text: c.text, cites: ids, ...(unresolved.length ? { unresolved } : {}) };
  });
}
