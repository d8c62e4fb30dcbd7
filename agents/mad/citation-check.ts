/**
 * Citation checks, run on every cited id when a brief or answer comes back:
 * - exists: the id is in the index doc store (a hallucinated id is not);
 * - seen: the author had the passage in view (the shared pool or its own requested snippet);
 * - supportive (the lexical support check): the passage exists and covers at least
 *   SUPPORT_MIN_OVERLAP of the claim's content terms (English stopwords removed, Porter-stemmed,
 *   the index analyzer's defaults), with at least SUPPORT_MIN_SHARED shared terms. It is a cheap,
 *   deterministic proxy for "the passage says what the claim uses it for": it reads the passage as
 *   the prompts showed it (shownText: cut to passageChars), so a claim is never "supported" by words
 *   past the cut that the model did not see (it read the whole stored text). It catches citations to
 *   unrelated passages, not subtle misreadings — the judge's `unsupported_citations` is the
 *   model-based check beside it (see docs/mad.md).
 */
import { createAnalyzer } from '../../retrieval/analyzer.js';
import { shownText } from './prompts.js';
import type { CheckedCitation, Claim } from './types.js';

export const SUPPORT_MIN_OVERLAP = 0.3;
export const SUPPORT_MIN_SHARED = 2;

const analyzer = createAnalyzer();

/** Share of the claim's distinct content terms that occur in the passage, and how many. */
export function termOverlap(claim: string, passage: string): { overlap: number; shared: number } {
  const c = new Set(analyzer.tokens(claim));
  if (c.size === 0) return { overlap: 0, shared: 0 };
  const p = new Set(analyzer.tokens(passage));
  let shared = 0;
  for (const t of c) if (p.has(t)) shared++;
  return { overlap: shared / c.size, shared };
}

export function lexicallySupports(claim: string, passage: string): { supportive: boolean; overlap: number } {
  const { overlap, shared } = termOverlap(claim, passage);
  return { supportive: overlap >= SUPPORT_MIN_OVERLAP && shared >= SUPPORT_MIN_SHARED, overlap: Math.round(overlap * 1000) / 1000 };
}

export async function checkCitations(
  claims: Claim[],
  seen: ReadonlySet<string>,
  getPassage: (id: string) => Promise<{ text: string } | undefined>,
  /** Characters of each passage the prompts showed (MAD's passageChars). */
  passageChars: number,
): Promise<CheckedCitation[]> {
  const out: CheckedCitation[] = [];
  for (const c of claims) {
    for (const id of new Set(c.cites)) {
      const p = await getPassage(id);
      const s = p ? lexicallySupports(c.text, shownText(p.text, passageChars)) : { supportive: false, overlap: 0 };
      out.push({ id, claim: c.text, exists: !!p, seen: seen.has(id), supportive: s.supportive, overlap: s.overlap });
    }
    // named no handle shown: no passage, even where the text as written is a real id
    for (const id of new Set(c.unresolved ?? [])) out.push({ id, claim: c.text, exists: false, seen: false, supportive: false, overlap: 0, unresolved: true });
  }
  return out;
}
