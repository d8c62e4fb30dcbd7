/**
 * The passages a reader of briefs needs to check their citations (the judge, the cross-examiner, a
 * rebutting debater): every passage the briefs cite that is in the index, outside `exclude` (what the
 * reader is already shown: the pool, a debater's own requested snippets). A brief can cite a snippet
 * its debater requested in a rebuttal, which no other prompt shows; without its text the judge was
 * asked to rule on citations it never read (and its enum of citable handles offered them),
 * `citationsJudgeSupportive` counted them as supported, and an opponent was asked to rebut a bare
 * handle ("[P13]") it could not read.
 * Listed in handle order (P13, P14, …), so the prompt is the same whatever order the briefs are read in.
 */
import { passageHandles } from '../common/passage-handles.js';
import type { Brief } from './types.js';

export interface ShownPassage {
  id: string;
  text: string;
}

export async function citedPassages(
  briefs: readonly Brief[],
  getPassage: (id: string) => Promise<{ text: string } | undefined>,
  exclude: ReadonlySet<string> = new Set(),
): Promise<ShownPassage[]> {
  const h = passageHandles();
  const ids = new Set<string>();
  for (const b of [...briefs].sort((x, y) => x.letter.localeCompare(y.letter, 'en')))
    for (const c of b.citations) if (c.exists && !exclude.has(c.id)) ids.add(c.id);
  const out: ShownPassage[] = [];
  for (const id of ids) {
    h.handle(id); // an id first cited now gets its handle in letter order
    const p = await getPassage(id);
    if (p) out.push({ id, text: p.text });
  }
  const n = (id: string) => Number(h.handle(id).slice(1));
  return out.sort((a, b) => n(a.id) - n(b.id));
}
