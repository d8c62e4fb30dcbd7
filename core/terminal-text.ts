/**
 * Text from a corpus, a topics file or a model's reply, made safe to print on a terminal: every
 * character a terminal would act on instead of showing — C0 controls (ESC starts the sequences that
 * clear the screen, move the cursor or overwrite an earlier line), DEL, C1 controls (U+0085 NEL,
 * U+009B CSI) and the bidirectional controls that reorder what follows (U+202E RIGHT-TO-LEFT
 * OVERRIDE) — is written as its escape (`\u001b`), so a passage or a reply can neither hide itself
 * nor redraw the ranks, scores or messages printed before it. JSON output needs none of this:
 * JSON.stringify escapes controls. Files (results.jsonl, traces, reports) keep the text as it was.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it replaces
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same, less newline and tab
const UNSAFE_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `s` on one line (whitespace runs, newlines included, collapse to one space) with its control and bidirectional-control characters escaped. */
export function terminalLine(s: string): string {
  return s.replace(/\s+/g, ' ').replace(UNSAFE, escaped).trim();
}

/**
 * `s` with the same characters escaped but its newlines and tabs kept: a log message or error that
 * spans lines (a hint on the next line) and may quote a model's reply (core/log.ts writes every
 * message through it).
 */
export function terminalText(s: string): string {
  return s.replace(UNSAFE_BUT_LINES, escaped);
}
