/**
 * Words the explorer prints for things it reads from files: a system's name and id without saying
 * the id twice ("baseline (CASE)", not "baseline (CASE) (baseline)"), counts that agree with their
 * noun ("1 key differs", "2 keys differ"), and a place in a trace as words ("advocates › tool
 * calls › ids", not the raw JSON path "advocates › toolCalls › ids"; "gold passages", not "goldIds").
 */

/** "MAD (mad-sparse)" when the id says more than the name; the name alone when the name already holds the id. */
export function systemLabel(name: string, id: string | null | undefined): string {
  if (!id || name.toLowerCase().includes(id.toLowerCase())) return name;
  return `${name} (${id})`;
}

/** "1 key differs" / "3 keys differ". */
export function keysDiffer(n: number): string {
  return n === 1 ? '1 key differs' : `${n} keys differ`;
}

const KNOWN: Record<string, string> = {
  goldIds: 'gold passages',
  goldPassageIds: 'gold passages',
  ids: 'returned ids',
  toolCalls: 'tool calls',
  evidence: 'evidence',
  pool: 'passage pool',
};

/** A trace path ("advocates › toolCalls › ids", "goldIds") in words. */
export function placeWords(place: string): string {
  return place
    .split(' › ')
    .map(
      (p) =>
        KNOWN[p] ??
        p
          .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
          .replace(/_/g, ' ')
          .toLowerCase(),
    )
    .join(' › ');
}
