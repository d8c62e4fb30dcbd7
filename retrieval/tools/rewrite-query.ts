/**
 * rewrite_query: LLM query formulation as a LangChain tool. Styles:
 *  - structured (default): the structured-reasoning rewrite of Zheng et al. (2025, "A
 *    Reasoning-Focused Legal Retrieval Benchmark"): the model states the legal issue the facts raise
 *    and the general rule that would resolve it, and that text (issue + rule) is the query — it
 *    bridges the low lexical overlap between fact patterns and the passages that state the law;
 *  - expand: the query plus legal terms of art and synonyms;
 *  - keywords: a short keyword query.
 * Output JSON {query, style, issue?, rule?} (or {error, query: <input>} when the model's reply
 * cannot be parsed twice). The call is recorded like the search tools, with `output` = new query.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';
import { invokeStructured } from '../../core/llm/structured.js';
import { recordToolCall, type ToolRecorder } from './tool-recorder.js';
import { recordRefusedInput } from './refused-input.js';

export const REWRITE_STYLES = ['structured', 'expand', 'keywords'] as const;
export type RewriteStyle = (typeof REWRITE_STYLES)[number];

/**
 * The tool's input, in the strict subset a model is offered (every field required; facts and style
 * may be null); a caller may leave facts and style out.
 */
export const rewriteInputSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) ? { facts: null, style: null, ...v } : v),
  z.object({
    query: z.string().describe('What you need to find: a question, hypothesis or draft query'),
    facts: z.string().nullable().describe('Facts of the case, to ground the rewrite (null: none)'),
    style: z
      .enum(REWRITE_STYLES)
      .nullable()
      .describe('structured (default, null): state the legal issue and governing rule; expand: add terms of art; keywords: short keyword query'),
  }),
);

export type RewriteInput = { query: string; facts?: string | null; style?: RewriteStyle | null };

const SYSTEM = 'You are a legal research assistant who writes search queries for a corpus of legal passages (treatises, statutes, rules and case excerpts).';

export function rewritePrompt(input: RewriteInput): string {
  const facts = input.facts?.trim() ? `Facts:\n${input.facts.trim()}\n\n` : '';
  const need = `What to research:\n${input.query.trim()}\n\n`;
  switch (input.style ?? 'structured') {
    case 'structured':
      return (
        facts +
        need +
        'Reason about the law before searching. Write:\n' +
        '1. "issue": the legal issue these facts raise, in one sentence, in general legal terms (no party names).\n' +
        '2. "rule": the legal rule that resolves that issue, stated generally, the way a treatise or statute would state it, with its elements and terms of art.\n' +
        'Reply with only a JSON object: {"issue": "...", "rule": "..."}'
      );
    case 'expand':
      return (
        facts +
        need +
        'Rewrite this as one search query that adds the relevant legal terms of art, doctrine names and synonyms. Reply with only a JSON object: {"query": "..."}'
      );
    case 'keywords':
      return facts + need + 'Give a short keyword search query (5 to 12 words, legal terms of art first). Reply with only a JSON object: {"query": "..."}';
  }
}

const structuredSchema = z.object({ issue: z.string(), rule: z.string() });
const querySchema = z.object({ query: z.string() });

/** Rewrite one query with `llm` (usable without the tool wrapper). */
export async function rewriteQuery(
  llm: BaseChatModel,
  input: RewriteInput,
  signal?: AbortSignal,
): Promise<{ query: string; style: RewriteStyle; issue?: string; rule?: string }> {
  const style = input.style ?? 'structured';
  const messages = [new SystemMessage(SYSTEM), new HumanMessage(rewritePrompt({ ...input, style }))];
  if (style === 'structured') {
    const { value } = await invokeStructured(llm, messages, structuredSchema, { what: 'rewrite_query (structured)', signal });
    return { query: `${value.issue.trim()} ${value.rule.trim()}`, style, issue: value.issue.trim(), rule: value.rule.trim() };
  }
  const { value } = await invokeStructured(llm, messages, querySchema, { what: `rewrite_query (${style})`, signal });
  return { query: value.query.trim(), style };
}

export function createRewriteQueryTool(o: { llm: BaseChatModel; recorder?: ToolRecorder }): StructuredToolInterface {
  const rewriteTool = tool(
    async (input: RewriteInput, config?: { signal?: AbortSignal }) => {
      const t0 = performance.now();
      const logInput = { query: input.query, style: input.style ?? 'structured', ...(input.facts ? { facts: input.facts } : {}) };
      try {
        const r = await rewriteQuery(o.llm, input, config?.signal);
        recordToolCall({ tool: 'rewrite_query', input: logInput, ids: [], ms: Math.round(performance.now() - t0), output: r.query }, o.recorder);
        return JSON.stringify(r);
      } catch (e) {
        const error = (e as Error).message ?? String(e);
        recordToolCall({ tool: 'rewrite_query', input: logInput, ids: [], ms: Math.round(performance.now() - t0), error }, o.recorder);
        return JSON.stringify({ error, query: input.query });
      }
    },
    {
      name: 'rewrite_query',
      description:
        'Reformulate a search query with legal reasoning. Default style "structured": states the legal issue and the governing rule, which retrieves rule statements far better than the raw facts. Returns {query}; then pass that query to a search tool.',
      schema: rewriteInputSchema,
    },
  ) as unknown as StructuredToolInterface;
  return recordRefusedInput(rewriteTool, o.recorder);
}
