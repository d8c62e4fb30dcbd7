/**
 * A scripted server for one CASE advocate whose first reply asks for several tool calls at once: the
 * first request gets `calls`; the next gets the evidence `pick` chooses from the tool messages it
 * carries (which `pick` may also record). Returns the server and a chat model on it (no cache, no
 * retries).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { llmConfigSchema } from '../../../core/config.js';
import { createChatModel } from '../../../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptToolCall } from '../../../tests/support/scripted-openai-server.js';

export interface ToolMessageSeen {
  tool_call_id?: string;
  /** The passage handles the tool message listed, in its order. */
  handles: string[];
}

export async function oneReplyOfCalls(
  calls: ScriptToolCall[],
  pick: (seen: ToolMessageSeen[]) => string[],
): Promise<{ srv: ScriptedServer; llm: BaseChatModel }> {
  const srv = await startScriptedServer((req: RecordedRequest) => {
    const msgs = req.body.messages as { role: string; content: string; tool_call_id?: string }[];
    const toolMsgs = msgs.filter((m) => m.role === 'tool');
    if (toolMsgs.length === 0) return { toolCalls: calls };
    const seen = toolMsgs.map((m) => ({ tool_call_id: m.tool_call_id, handles: (JSON.parse(m.content).results as { id: string }[]).map((r) => r.id) }));
    return { content: JSON.stringify({ analysis: 'a', evidence: pick(seen).map((id) => ({ id, justification: 'j' })) }) };
  });
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
  return { srv, llm };
}
