/**
 * A LangChain chat model for unit tests that records every call and answers from a script —
 * no HTTP. Replies are text, tool calls, or an error to throw; taken in order from a list (a call
 * past the end throws "script exhausted"), or computed by a function of the call.
 *
 *   const model = new FakeChatModel(['{"vote":"B"}', { toolCalls: [{ name: 'bm25_search', args: { query: 'q' } }] }]);
 *   await model.bindTools(tools).invoke([new HumanMessage('...')]);
 *   expect(model.calls[0].tools.map((t) => t.function.name)).toContain('bm25_search');
 *   expect(model.calls.every((c) => !c.text.includes(goldPassage))).toBe(true);
 *
 * Calls made through bindTools/withConfig copies are recorded on the same `calls` list. Token
 * usage (given per reply, or ≈ chars/4) is reported like the real factory model does: into
 * `opts.usage` and the current usage scope (core/llm/usage.ts), so runner tests see per-item tokens.
 */
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import { BaseChatModel, type BaseChatModelCallOptions, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { messageText } from '../../core/llm/structured.js';
import { recordUsage, type UsageMeter } from '../../core/llm/usage.js';
import { roughTokens } from './scripted-openai-server.js';

export type FakeReply =
  | string
  | {
      content?: string;
      toolCalls?: { name: string; args: Record<string, unknown>; id?: string }[];
      usage?: { input: number; output: number };
      /** Throw this instead of answering. */
      error?: Error | string;
      /** The reply message's id (default none), e.g. the same for every reply, as some servers send. */
      id?: string;
    };

export interface FakeCall {
  index: number;
  messages: BaseMessage[];
  /** Bound tools in OpenAI function format ({type:'function', function:{name, description, parameters}}). */
  tools: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  /** All message text joined (for leak checks: "no gold passage in the prompt"). */
  text: string;
  options: Record<string, unknown>;
}

export type FakeScript = FakeReply[] | ((call: FakeCall, index: number) => FakeReply | Promise<FakeReply>);

interface Shared {
  script: FakeScript;
  calls: FakeCall[];
  usage?: UsageMeter;
  toolCallCounter: number;
}

interface FakeCallOptions extends BaseChatModelCallOptions {
  tools?: BindToolsInput[];
}

export class FakeChatModel extends BaseChatModel<FakeCallOptions> {
  private shared: Shared;
  private bound: { tools?: BindToolsInput[]; options: Record<string, unknown> };

  constructor(script: FakeScript, opts: { usage?: UsageMeter } = {}, shared?: Shared, bound?: FakeChatModel['bound']) {
    super({});
    this.shared = shared ?? { script, calls: [], usage: opts.usage, toolCallCounter: 0 };
    this.bound = bound ?? { options: {} };
  }

  get calls(): FakeCall[] {
    return this.shared.calls;
  }

  _llmType(): string {
    return 'fake-scripted';
  }

  override bindTools(tools: BindToolsInput[], kwargs?: Partial<FakeCallOptions>) {
    return new FakeChatModel(this.shared.script, {}, this.shared, {
      tools,
      options: { ...this.bound.options, ...(kwargs ?? {}) },
    });
  }

  override withConfig(config: Partial<FakeCallOptions>) {
    const { tools, ...rest } = config;
    return new FakeChatModel(this.shared.script, {}, this.shared, {
      tools: tools ?? this.bound.tools,
      options: { ...this.bound.options, ...rest },
    }) as unknown as ReturnType<BaseChatModel<FakeCallOptions>['withConfig']>;
  }

  async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], _rm?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const s = this.shared;
    const tools = (options.tools ?? this.bound.tools ?? []).map((t) => convertToOpenAITool(t as never)) as FakeCall['tools'];
    const call: FakeCall = {
      index: s.calls.length,
      messages: [...messages],
      tools,
      text: messages.map((m) => messageText(m)).join('\n'),
      options: { ...this.bound.options, ...(options as Record<string, unknown>) },
    };
    s.calls.push(call);
    let reply: FakeReply | undefined;
    if (typeof s.script === 'function') reply = await s.script(call, call.index);
    else reply = s.script[call.index];
    if (reply === undefined) throw new Error(`fake chat model: script exhausted (call ${call.index + 1})`);
    const r = typeof reply === 'string' ? { content: reply } : reply;
    if (r.error) throw typeof r.error === 'string' ? new Error(r.error) : r.error;
    const toolCalls = (r.toolCalls ?? []).map((t) => ({
      name: t.name,
      args: t.args,
      id: t.id ?? `fake_call_${++s.toolCallCounter}`,
      type: 'tool_call' as const,
    }));
    const content = r.content ?? '';
    const input = r.usage?.input ?? roughTokens(call.text);
    const output = r.usage?.output ?? roughTokens(content + JSON.stringify(toolCalls.map((t) => t.args)));
    recordUsage({ input, output }, s.usage);
    const message = new AIMessage({
      content,
      tool_calls: toolCalls,
      usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output },
      ...(r.id !== undefined ? { id: r.id } : {}),
    });
    return { generations: [{ text: content, message }], llmOutput: { tokenUsage: { promptTokens: input, completionTokens: output } } };
  }
}
