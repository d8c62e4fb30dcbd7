/**
 * Query-aware snippet: the passage text cut to `maxChars` characters, its cut marks included ("… "
 * where it starts after the text's start, " …" where it ends before the text's end), starting at
 * the sentence that shares the most words with the query (the whole text when it fits).
 * Deterministic. Before, the marks came on top: a "600-character" snippet could be 604.
 */
const WORD = /[a-z0-9]+/g;
const MARK_CHAR = '…';
/** The mark a snippet cut before the text's end ends with. */
const MARK = ` ${MARK_CHAR}`;

/**
 * How a snippet's length counts its cut marks, recorded in a CASE LLM run's config.json
 * (`searchSnippetMarks`, agents/common/defaults.ts): an older lexcase added them beyond
 * `searchSnippetChars`, so its advocates read up to 4 characters more of some hits, and a resume of
 * its run dir warns (eval/resume-unrecorded.ts).
 */
export const SNIPPET_MARKS = 'within the length';

function words(s: string): Set<string> {
  return new Set((s.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 2));
}

export function makeSnippet(text: string, query: string, maxChars: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= maxChars) return clean;
  const q = words(query);
  // Sentence starts: 0 and every position after ". " / "? " / "! " / "; ".
  const starts = [0];
  for (const m of clean.matchAll(/[.?!;]\s+/g)) starts.push(m.index! + m[0].length);
  let best = 0;
  let bestScore = -1;
  for (const s of starts) {
    const window = clean.slice(s, s + maxChars);
    let score = 0;
    for (const w of words(window)) if (q.has(w)) score++;
    if (score > bestScore) {
      bestScore = score;
      best = s;
    }
  }
  // too short for a mark and some text: the first characters alone
  if (maxChars < 2 * MARK.length + 1) return clean.slice(0, maxChars);
  const lead = best > 0 ? `${MARK_CHAR} ` : '';
  // the room the text has beside its marks
  let room = maxChars - lead.length;
  if (best + room >= clean.length) return lead + clean.slice(best);
  room -= MARK.length;
  let cut = clean.slice(best, best + room);
  const sp = cut.lastIndexOf(' ');
  if (sp > room * 0.6) cut = cut.slice(0, sp);
  return `${lead}${cut.trimEnd()}${MARK}`;
}
