/**
 * Which records of two runs a comparison pairs: those of one id that are the same item in both —
 * the same recorded gold label, and the same content checksum where both record one (`itemChecksum`:
 * 3-ply's triples, whose `<mode>-NNN` ids name a place in a seeded draw, not a triple). An id both
 * runs hold for different items (another data copy with other labels, 3-ply runs of another seed,
 * source or complexity) is left out of every paired figure and counted in a line each surface
 * prints; before, such items were paired by id and the interval and McNemar p were computed on
 * them. Where items need a checksum (a record of either run has one, or the system's ids do not
 * name content: `SystemSpec.itemChecksum`) and a record lacks it (a run an older lexcase wrote),
 * the pair is compared by id and gold only, with a warning line.
 * Every item also records the checksum of what a model is shown of it (`contentChecksum`: question,
 * options, text as loaded): an id whose text differs between the runs (a dataset edited under the same
 * ids and labels) is left out likewise. Pairs where one run records it and the other does not (written
 * before 2026-12-01) are compared by id and gold, with a one-line note; two such older runs get no line.
 */
import type { ResultRecord } from '../types.js';

export type Pair = readonly [ResultRecord, ResultRecord];

export interface Pairing {
  pairs: Pair[];
  /** Ids both runs hold. */
  sharedIds: number;
  /** Ids both runs hold for different items (gold label or content differs): left out. */
  different: number;
  /** Compared pairs whose content could not be checked (a record without `itemChecksum`). */
  unchecked: number;
  /** What the different items are, in words ("4 items both runs hold under one id are different items in each (…)"); empty when none. */
  differentText: string;
  /** The lines every surface prints (none when every shared id is the same item, checked). */
  lines: string[];
}

const count = (n: number) => `${n} item${n === 1 ? '' : 's'}`;
const eg = (xs: string[]) => (xs.length ? `: e.g. ${xs.slice(0, 3).join('; ')}` : '');

/** Pairs A's and B's records by id, leaving out ids that are different items in each; `needsChecksum`: the systems' ids do not name content. */
export function pairRecords(a: readonly ResultRecord[], b: readonly ResultRecord[], needsChecksum = false): Pairing {
  const bById = new Map(b.map((r) => [r.id, r]));
  const shared: Pair[] = a.filter((r) => bById.has(r.id)).map((r) => [r, bById.get(r.id)!] as const);
  const relabelled: string[] = [];
  const changed: string[] = [];
  const edited: string[] = [];
  const pairs: Pair[] = [];
  for (const [x, y] of shared) {
    if (x.gold !== y.gold) relabelled.push(`${x.id} gold A "${x.gold}", B "${y.gold}"`);
    else if (x.itemChecksum && y.itemChecksum && x.itemChecksum !== y.itemChecksum) changed.push(x.id);
    else if (x.contentChecksum && y.contentChecksum && x.contentChecksum !== y.contentChecksum) edited.push(x.id);
    else pairs.push([x, y]);
  }
  // pairs whose text one run checks and the other (an older lexcase's) cannot
  const textUnchecked = pairs.filter(([x, y]) => !x.contentChecksum !== !y.contentChecksum);
  const checked = needsChecksum || [...a, ...b].some((r) => r.itemChecksum !== undefined);
  const lacking = (side: 0 | 1) => pairs.filter((p) => !p[side].itemChecksum).length;
  const unchecked = checked ? pairs.filter(([x, y]) => !x.itemChecksum || !y.itemChecksum).length : 0;
  const different = relabelled.length + changed.length + edited.length;
  const why = [
    relabelled.length ? `another gold label: ${relabelled.length}${eg(relabelled)}` : '',
    changed.length ? `other content (itemChecksum): ${changed.length}${eg(changed)}` : '',
    edited.length ? `other question text (contentChecksum): ${edited.length}${eg(edited)}` : '',
  ].filter(Boolean);
  const differentText = different
    ? `${count(different)} both runs hold under one id ${different === 1 ? 'is a different item' : 'are different items'} in each (${why.join('; ')})`
    : '';
  const lines: string[] = [];
  if (different) lines.push(`not compared: ${differentText}, left out of every figure`);
  if (unchecked) {
    const who = [lacking(0) ? 'A' : '', lacking(1) ? 'B' : ''].filter(Boolean).join(' and ');
    lines.push(
      `warning: the content of ${count(unchecked)} compared is not checked: ${who} (written by an older lexcase) record${who.includes(' and ') ? '' : 's'} no item checksum, so those items are paired by id and gold label only`,
    );
  }
  if (textUnchecked.length) {
    const older = [textUnchecked.some(([x]) => !x.contentChecksum) ? 'A' : '', textUnchecked.some(([, y]) => !y.contentChecksum) ? 'B' : '']
      .filter(Boolean)
      .join(' and ');
    lines.push(
      `note: the text of ${count(textUnchecked.length)} compared is not checked: ${older} (written by an older lexcase) record${older.includes(' and ') ? '' : 's'} no content checksum, so those items are paired by id and gold label only`,
    );
  }
  return { pairs, sharedIds: shared.length, different, unchecked, differentText, lines };
}
