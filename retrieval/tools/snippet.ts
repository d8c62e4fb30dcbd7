/**
 * Query-aware snippet: the passage text cut to `maxChars`, starting at the sentence that shares
 * the most words with the query (the whole text when it fits). Deterministic.
 */
const WORD = /[a-z0-9]+/g;

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
  let cut = clean.slice(best, best + maxChars);
  if (best + maxChars < clean.length) {
    const sp = cut.lastIndexOf(' ');
    if (sp > maxChars * 0.6) cut = cut.slice(0, sp);
    cut += ' …';
  }
  return (best > 0 ? '… ' : '') + cut;
}
