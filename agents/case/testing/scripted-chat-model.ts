/**
 * A small scripted LangChain chat model for agents/case unit tests: replies come from a list (or a
 * function of the prompt), every call's messages are recorded, and bindTools is supported so the
 * model works inside langchain's createAgent loop. (The shared recording fake in tests/support is
 * the project-wide one; this one keeps the CASE tests independent of it.)
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { messageText } from '../../../src/llm/structured.js';

export type ScriptedReply =
  | string
  | { content?: string; toolCalls?: { name: string; args: Record<string, unknown>; id?: string }[]; tokens?: number }
  | ((messages: BaseMessage[], call: number) => string | AIMessage);

export class ScriptedChatModel extends BaseChatModel {
  readonly calls: BaseMessage[][] = [];
  boundTools: string[] = [];
  private i = 0;
  constructor(
    private readonly replies: ScriptedReply[],
    private readonly fallback?: ScriptedReply,
  ) {
    super({});
  }
  _llmType(): string {
    return 'scripted';
  }
  /** Every prompt text the model received, joined (for leak checks). */
  promptTexts(): string[] {
    return this.calls.map((msgs) => msgs.map((m) => messageText(m)).join('\n'));
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override bindTools(tools: any[]): any {
    this.boundTools = tools.map((t) => t.name ?? t.function?.name);
    return this;
  }
  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const call = this.i++;
    this.calls.push(messages);
    const r = call < this.replies.length ? this.replies[call] : this.fallback;
    if (r === undefined) throw new Error(`scripted model: no reply for call ${call + 1}`);
    let msg: AIMessage;
    if (typeof r === 'function') {
      const out = r(messages, call);
      msg = typeof out === 'string' ? new AIMessage(out) : out;
    } else if (typeof r === 'string') msg = new AIMessage(r);
    else
      msg = new AIMessage({
        content: r.content ?? '',
        tool_calls: (r.toolCalls ?? []).map((t, j) => ({ name: t.name, args: t.args, id: t.id ?? `call_${call}_${j}`, type: 'tool_call' as const })),
      });
    const tokens = typeof r === 'object' && typeof r !== 'function' && r.tokens ? r.tokens : 10;
    msg.usage_metadata = { input_tokens: tokens, output_tokens: Math.ceil(tokens / 2), total_tokens: tokens + Math.ceil(tokens / 2) };
    return { generations: [{ text: messageText(msg), message: msg }] };
  }
}
