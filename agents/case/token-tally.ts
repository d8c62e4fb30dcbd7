/**
 * Per-stage token counts for traces. `countingModel` returns a view of a chat model whose invoke()
 * adds the tokens each reply spent (usage_metadata; 0 for a reply the response cache served) to a tally; everything else is forwarded, so it can be handed to
 * invokeStructured (run-level accounting stays with the LLM factory's UsageMeter).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import { spentTokens } from '../../core/llm/spent-tokens.js';
import { messageText } from '../../core/llm/structured.js';

export interface Tally {
  tokens: number;
  /** Reply texts, in order, when present (kept for traces of failed parses). */
  replies?: string[];
}

export function countingModel(model: BaseChatModel, tally: Tally): BaseChatModel {
  return new Proxy(model, {
    get(target, prop, receiver) {
      if (prop === 'invoke') {
        return async (input: BaseMessage[], options?: unknown) => {
          const reply = await target.invoke(input, options as never);
          tally.tokens += spentTokens(reply);
          if (tally.replies) tally.replies.push(messageText(reply));
          return reply;
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}
