/**
 * The hints for a JSON file given where JSONL (one object a line) is read, in words: a JSON array file
 * (`[{…}, {…}]` on one line) was refused as "expected an object", a pretty-printed JSON file at its
 * first line `[` or `{` as "malformed JSON: Unexpected end of JSON input".
 */
export const ONE_OBJECT_A_LINE =
  "this reads JSONL, one JSON object a line; a JSON array or a pretty-printed JSON file is one document: convert it (jq -c '.[]' file.json > file.jsonl)";

/** The hint for a line that failed to parse as JSON when it opens a pretty-printed document. */
export function documentNote(text: string): string | undefined {
  const t = text.trim();
  return t === '[' || t === '{' ? `the line is "${t}" alone: ${ONE_OBJECT_A_LINE}` : undefined;
}
