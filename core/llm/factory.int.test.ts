/**
 * Against a REAL endpoint (opt-in: LEXCASE_INT=1 plus LEXCASE_LLM_BASE_URL / LEXCASE_LLM_MODEL /
 * LEXCASE_LLM_API_KEY or lexcase.config.json). Skipped when no endpoint is configured.
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { llmConfigured, loadConfig } from '../config.js';
import { createChatModel } from './factory.js';
import { UsageMeter } from './usage.js';

const cfg = await loadConfig().catch(() => undefined);
const configured = !!cfg && llmConfigured(cfg.llm);

describe.skipIf(!configured)('createChatModel against the configured endpoint', () => {
  it('answers, counts tokens and calls a tool', async () => {
    const usage = new UsageMeter();
    const model = createChatModel({ ...cfg!.llm, cacheDir: false }, { usage });
    const reply = await model.invoke([new HumanMessage('Reply with the single word: ready')]);
    expect(String(reply.content).toLowerCase()).toContain('ready');
    expect(usage.snapshot().input).toBeGreaterThan(0);
    const search = tool(async () => '{"results": []}', {
      name: 'bm25_search',
      description: 'Search legal passages',
      schema: z.object({ query: z.string() }),
    });
    const r = (await model.bindTools!([search], { tool_choice: 'required' } as never).invoke([
      new HumanMessage('Search the legal corpus for the rule on adverse possession.'),
    ])) as AIMessage;
    expect(r.tool_calls?.[0]?.name).toBe('bm25_search');
  }, 120_000);
});
