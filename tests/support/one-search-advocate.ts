/**
 * A scripted advocate for evidence tests (tests/support/scripted-openai-server.ts): it searches once with
 * bm25, then selects the first passage it saw — one request without a tool result, one with.
 */
import type { RecordedRequest, ScriptReply } from './scripted-openai-server.js';

export function oneSearchAdvocate(req: RecordedRequest): ScriptReply {
  const tools = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
  const usage = { usage: { prompt_tokens: 50, completion_tokens: 10 } };
  if (tools.length === 0) return { ...usage, toolCalls: [{ name: 'bm25_search', args: { query: 'hearsay statement', k: null }, id: 'call_1' }] };
  const seen = tools.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
  return {
    ...usage,
    content: JSON.stringify({ analysis: 'one search', evidence: seen.slice(0, 1).map((p: string) => ({ id: p, justification: 'on point' })) }),
  };
}
