/**
 * A tool call whose arguments its schema refuses (a search with k 100, no query): langchain's
 * createAgent answers the model with its ToolInvocationError's text, which carries the refusal's
 * whole stack — the machine's file paths (`at StructuredTool.call
 * (file:///home/…/node_modules/@langchain/core/dist/tools/index.js:113:10)`), sent to the LLM
 * endpoint and kept in the trace's `error`, and ~1,000 characters of the model's context. This
 * middleware answers the same call with the same words and the refusal's message alone.
 */
import { ToolMessage } from '@langchain/core/messages';
import { createMiddleware, ToolInvocationError } from 'langchain';

/** What the model is told of a refused call: langchain's wording, the refusal's message in place of its stack. */
export function toolErrorText(name: string, args: unknown, message: string): string {
  return `Error invoking tool '${name}' with kwargs ${JSON.stringify(args)} with error: ${message}\n Please fix the error and try again.`;
}

/** Middleware for createAgent loops (innermost): a refused tool input is answered without the stack. */
export function toolErrorsWithoutStack() {
  return createMiddleware({
    name: 'LexcaseToolErrorText',
    wrapToolCall: async (request, handler) => {
      try {
        return await handler(request);
      } catch (e) {
        if (!ToolInvocationError.isInstance(e)) throw e;
        const { toolCall } = request;
        return new ToolMessage({
          content: toolErrorText(toolCall.name, toolCall.args, (e as ToolInvocationError).toolError.message),
          tool_call_id: toolCall.id ?? '',
          name: toolCall.name,
          status: 'error',
        });
      }
    },
  });
}
