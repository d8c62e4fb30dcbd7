/**
 * Cutting text to a length in UTF-16 units without splitting a surrogate pair (an emoji, a rare CJK
 * character): the cut goes before the pair, so a prompt, an API reply or a report never ends in a lone
 * surrogate (which JSON carries as an invalid `\ud83d`).
 */

/** The first `max` UTF-16 units of `text` (one fewer when the last would be the first half of a pair), unmarked. */
export function cutUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** `text` whole when it fits in `max` UTF-16 units, else its start and '…' (`max` units at most, the mark included). */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return cutUnits(text, max - 1).trimEnd() + '…';
}
