/**
 * The source text of one top-level member of a JSON object, e.g. `1.0` for `{"id": 1.0, …}`:
 * JSON.parse gives the number 1 and forgets how the file wrote it (Node 20 has no JSON.parse
 * source-text access). Used only for ids that parse as numbers, so a passage keeps the id text its
 * file holds or is refused (passage-rules.ts rawNumberIdProblem). The text must already be valid
 * JSON (JSON.parse accepted it); strings are skipped with indexOf, not character by character.
 */

/** Index just past the string literal that opens at `i` (text[i] === '"'). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const q = text.indexOf('"', j);
    if (q < 0) return text.length;
    let bs = 0;
    for (let k = q - 1; k > i && text.charCodeAt(k) === 92; k--) bs++;
    if (bs % 2 === 0) return q + 1;
    j = q + 1;
  }
}

const isWs = (c: number) => c === 32 || c === 9 || c === 10 || c === 13;

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** Index just past the JSON value that starts at `i`. */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    let j = i;
    while (j < text.length) {
      const d = text[j];
      if (d === '"') {
        j = stringEnd(text, j);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
      j++;
    }
    return j;
  }
  let j = i;
  while (j < text.length && !isWs(text.charCodeAt(j)) && text[j] !== ',' && text[j] !== '}' && text[j] !== ']') j++;
  return j;
}

/**
 * The raw text of member `key` of the JSON object `text` (the last one, as JSON.parse keeps the
 * last of duplicate keys), or undefined when `text` is not an object or has no such member.
 */
export function jsonMemberText(text: string, key: string): string | undefined {
  let i = skipWs(text, 0);
  if (text[i] !== '{') return undefined;
  i = skipWs(text, i + 1);
  let found: string | undefined;
  while (i < text.length && text[i] === '"') {
    const keyEnd = stringEnd(text, i);
    const k = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWs(text, keyEnd);
    if (text[i] !== ':') return found;
    i = skipWs(text, i + 1);
    const end = valueEnd(text, i);
    if (k === key) found = text.slice(i, end);
    i = skipWs(text, end);
    if (text[i] !== ',') break;
    i = skipWs(text, i + 1);
  }
  return found;
}
