/**
 * A tool call whose arguments its schema refuses (a search with k 100, no query): langchain's
 * createAgent answers the model with its ToolInvocationError's text, which carries the refusal's
 * whole stack — the machine's file paths (`at StructuredTool.call
 * (file:///home/…/node_modules/@langchain/core/dist/tools/index.js:113:10)`), sent to the LLM
 * endpoint and kept in the trace's `error`, and ~1,000 characters of the model's context. This
 * middleware answers the same call in lexcase's words: the tool, each field refused with its rule
 * and the value sent, that nothing ran, and what to do — no stack.
 */
import { ToolMessage } from '@langchain/core/messages';
import { createMiddleware, ToolInvocationError } from 'langchain';

/** One refused field: where in the arguments (empty: the arguments as a whole) and the rule it broke. */
export interface RefusedField {
  path: readonly PropertyKey[];
  rule: string;
}

/** A schema that checks arguments without throwing (zod's). */
interface CheckingSchema {
  safeParse(v: unknown): { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

const isChecking = (s: unknown): s is CheckingSchema => typeof (s as { safeParse?: unknown } | undefined)?.safeParse === 'function';

/** The fields `schema` refuses in `args` (none where it is not a checking schema or accepts them). */
export function refusedFields(schema: unknown, args: unknown): RefusedField[] {
  if (!isChecking(schema)) return [];
  const r = schema.safeParse(args);
  return r.success ? [] : (r.error?.issues ?? []).map((i) => ({ path: i.path, rule: i.message }));
}

/** The value at `path` in `args`, as JSON cut at 200 characters (undefined where the model sent none). */
function sentAt(args: unknown, path: readonly PropertyKey[]): string | undefined {
  let v: unknown = args;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  const json = v === undefined ? undefined : JSON.stringify(v);
  return json !== undefined && json.length > 200 ? `${json.slice(0, 200)}…` : json;
}

/**
 * What the model is told of a refused call: the tool's name, each refused field with its rule and the
 * value sent (or, where the fields are not known, the refusal's message — never its stack), that the
 * tool did not run, and to call it again within the rules.
 */
export function toolErrorText(name: string, args: unknown, fields: readonly RefusedField[], message: string): string {
  const lines = fields.length
    ? fields.map(({ path, rule }) => {
        const sent = sentAt(args, path);
        return `- ${path.length ? path.map(String).join('.') : 'arguments'}: ${rule}${sent === undefined ? ' (not sent)' : ` (sent ${sent})`}`;
      })
    : [
        `- ${message
          .split('\n')
          .filter((l) => !/^\s+at /.test(l))
          .join(' ')
          .trim()}`,
      ];
  return [`Tool ${name} did not run: its arguments break the tool's input rules.`, ...lines, `Call ${name} again with arguments that keep these rules.`].join(
    '\n',
  );
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
        const fields = refusedFields((request.tool as { schema?: unknown } | undefined)?.schema, toolCall.args);
        return new ToolMessage({
          content: toolErrorText(toolCall.name, toolCall.args, fields, (e as ToolInvocationError).toolError.message),
          tool_call_id: toolCall.id ?? '',
          name: toolCall.name,
          status: 'error',
        });
      }
    },
  });
}
