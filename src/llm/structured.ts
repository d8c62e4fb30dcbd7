/**
 * Structured LLM outputs parsed with zod. Models are asked for JSON in the prompt (works with any
 * OpenAI-compatible server, no response_format needed); the reply is parsed tolerantly (code fences,
 * prose around the object), validated, and on failure the model is asked once more with the
 * validation error. A second failure throws LLM_OUTPUT_INVALID, which runners record per item.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { z } from 'zod';
import { errors } from '../errors.js';

/** Text content of a chat reply (string or content parts). */
export function messageText(msg: BaseMessage): string {
  const c = msg.content;
  if (typeof c === 'string') return c;
  return c
    .map((p) => (typeof p === 'string' ? p : 'text' in p && typeof p.text === 'string' ? p.text : ''))
    .join('');
}

/** Pull the first JSON object or array out of a reply: fenced block, whole text, or first {...}. */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const candidates = [fenced?.[1], text];
  for (const c of candidates) {
    if (!c) continue;
    const t = c.trim();
    try {
      return JSON.parse(t);
    } catch {
      /* try a balanced slice */
    }
    for (const [open, close] of [
      ['{', '}'],
      ['[', ']'],
    ] as const) {
      const start = t.indexOf(open);
      if (start < 0) continue;
      let depth = 0;
      let inStr = false;
      for (let i = start; i < t.length; i++) {
        const ch = t[i];
        if (inStr) {
          if (ch === '\\') i++;
          else if (ch === '"') inStr = false;
        } else if (ch === '"') inStr = true;
        else if (ch === open) depth++;
        else if (ch === close && --depth === 0) {
          try {
            return JSON.parse(t.slice(start, i + 1));
          } catch {
            break;
          }
        }
      }
    }
  }
  throw new Error('no JSON object found in the reply');
}

export function parseStructured<S extends z.ZodType>(text: string, schema: S): z.infer<S> {
  const json = extractJson(text);
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Error(`field "${issue.path.join('.') || '(root)'}": ${issue.message}`);
  }
  return r.data;
}

export interface StructuredResult<T> {
  value: T;
  /** Raw replies, first try first (kept for traces). */
  raw: string[];
  attempts: number;
}

/**
 * Invoke `model` and parse its reply with `schema`; retry once with the parse error appended.
 * Throws LexcaseError LLM_OUTPUT_INVALID (naming `what`) after the second failure.
 */
export async function invokeStructured<S extends z.ZodType>(
  model: BaseChatModel,
  messages: BaseMessage[],
  schema: S,
  opts: { what: string; signal?: AbortSignal },
): Promise<StructuredResult<z.infer<S>>> {
  const raw: string[] = [];
  let convo = messages;
  let lastError = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    const reply = await model.invoke(convo, { signal: opts.signal });
    const text = messageText(reply);
    raw.push(text);
    try {
      return { value: parseStructured(text, schema), raw, attempts: attempt };
    } catch (e) {
      lastError = (e as Error).message;
      convo = [
        ...messages,
        new AIMessage(text),
        new HumanMessage(`Your reply could not be parsed (${lastError}). Reply again with only the JSON object, exactly in the requested format.`),
      ];
    }
  }
  throw errors.llmOutputInvalid(opts.what, lastError);
}
