/**
 * Text from a corpus, a topics file or a model's reply, made safe to print on one terminal line:
 * whitespace runs (newlines, tabs, U+2028/U+2029) collapse to one space, and every character a
 * terminal would act on instead of showing — C0 controls (ESC starts the sequences that clear the
 * screen, move the cursor or overwrite an earlier line), DEL, C1 controls (U+0085 NEL, U+009B CSI)
 * and the bidirectional controls that reorder what follows (U+202E RIGHT-TO-LEFT OVERRIDE) — is
 * written as its escape (`\u001b`), so a passage can neither hide itself nor redraw the ranks and
 * scores printed before it. JSON output needs none of this: JSON.stringify escapes controls.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it replaces
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `s` on one line with its control and bidirectional-control characters escaped. */
export function terminalLine(s: string): string {
  return s
    .replace(/\s+/g, ' ')
    .replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .trim();
}
