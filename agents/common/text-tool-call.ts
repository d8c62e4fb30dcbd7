/**
 * A tool call written into a reply's text instead of sent as `tool_calls`: what a server without
 * tool-call parsing returns (vLLM with the wrong --tool-call-parser, llama.cpp without --jinja),
 * e.g. `<tool_call>{"name": "bm25_search", "arguments": {…}}</tool_call>`. It never runs; the
 * agents that see one say so in their trace.
 */
const TEXT_CALL = /<tool_call>|"name"\s*:\s*"([^"]+)"\s*,\s*"arguments"/;

/** The tool a reply's text tries to call (its name, or "(unknown)"), undefined when the text holds no tool call. */
export function textToolCall(text: string): string | undefined {
  const m = TEXT_CALL.exec(text);
  if (!m) return undefined;
  return m[1] ?? /"name"\s*:\s*"([^"]+)"/.exec(text)?.[1] ?? '(unknown)';
}

/** Why such a call never ran, for a trace or an error. */
export const TEXT_TOOL_CALL_HINT = "a tool call written as text: check the server's tool-call parsing, e.g. vLLM's --tool-call-parser, llama.cpp's --jinja";
