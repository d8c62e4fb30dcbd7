/**
 * A search tool call with a field besides query and k (top_k, K, method) is refused — recorded as a
 * failed search and the model told which field, as for k 100 — not run with the field dropped: before,
 * { query: QUERY, top_k: 20 } returned the default 5 hits as if the model had asked for them. The
 * schema sent to the model already said additionalProperties: false; every value it allows still
 * passes the parser (the contract-fuzz property, tests/contract-fuzz.test.ts). Real index: bundled
 * Bar Exam QA gold passages + legal_corpus distractors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createAgent } from 'langchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { strictSchemaProblems } from '../../core/llm/strict-schema.js';
import { refusedFields, toolErrorText } from '../../agents/common/tool-error-text.js';
import { openCaseIndex, type AgentIndex } from '../open-index.js';
import { closeSparseIndexes } from '../open.js';
import { startScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { valuesOf } from '../../tests/support/schema-values.js';
import { createRetrievalTools, searchHits, searchInputSchema, ToolRecorder } from './index.js';

/** Words of many passages: more hits than any k asked here. */
const QUERY = 'the court held that the evidence was admissible';
let dir: string;
let idx: AgentIndex;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-search-tool-fields-'));
  await buildSmallBarexamIndex(join(dir, 'idx'), { items: 2 });
  idx = await openCaseIndex(join(dir, 'idx'));
}, 60_000);
afterAll(async () => {
  await idx?.docs.close?.();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

describe('search tool input: no field besides query and k', () => {
  it('top_k, K and method are refused from code (ToolInputParsingException) and the failed call is recorded; { query, k: 20 } returns 20', async () => {
    const recorder = new ToolRecorder();
    const bm25 = createRetrievalTools({ retrievers: idx.retrievers, docs: idx.docs, recorder }).find((t) => t.name === 'bm25_search')!;
    expect((await searchHits(bm25, { query: QUERY, k: 20 })).results).toHaveLength(20);
    for (const extra of [{ top_k: 20 }, { K: 20 }, { k: 20, method: 'qld' }])
      await expect(searchHits(bm25, { query: QUERY, ...extra } as never)).rejects.toThrow(/did not match expected schema[\s\S]*Unrecognized key/);
    expect(recorder.calls.map((c) => c.error === undefined)).toEqual([true, false, false, false]);
    expect(recorder.calls[1]).toMatchObject({ tool: 'bm25_search', ids: [], input: { query: QUERY, top_k: 20 } });
    // what the model is told of such a call: the field and what was sent
    const args = { query: QUERY, top_k: 20 };
    expect(toolErrorText('bm25_search', args, refusedFields(bm25.schema, args), 'unused')).toContain('Unrecognized key: "top_k"');
  });

  it('in an agent loop (the real ChatOpenAI client): the model is told of the top_k call, the k call runs; the sent schema allows no other field and each value it allows parses', async () => {
    const srv = await startScriptedServer([
      {
        toolCalls: [
          { name: 'qld_search', args: { query: QUERY, top_k: 20 } },
          { name: 'qld_search', args: { query: QUERY, k: 7 } },
        ],
      },
      { content: 'The passages support option A.' },
    ]);
    try {
      const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, retryBaseMs: 1 }));
      const recorder = new ToolRecorder();
      const agent = createAgent({ model, tools: createRetrievalTools({ retrievers: idx.retrievers, docs: idx.docs, recorder }) });
      await agent.invoke({ messages: [{ role: 'user', content: 'Find the rule.' }] });
      const toolMsgs = srv.requests[1].body.messages.filter((m: { role: string }) => m.role === 'tool');
      expect(toolMsgs[0].content).toMatch(/did not match expected schema[\s\S]*top_k/);
      expect(JSON.parse(toolMsgs[1].content).results).toHaveLength(7);
      expect(recorder.calls.map((c) => [c.input.top_k ?? c.input.k, c.error === undefined])).toEqual([
        [20, false],
        [7, true],
      ]);
      const sent = srv.requests[0].body.tools.find((t: { function: { name: string } }) => t.function.name === 'qld_search').function.parameters;
      expect(sent).toMatchObject({ additionalProperties: false, required: ['query', 'k'] });
      const { $schema: _, ...schema } = sent;
      expect(strictSchemaProblems(schema)).toEqual([]);
      fc.assert(
        fc.property(valuesOf(schema), (v) => searchInputSchema.safeParse(v).success),
        { numRuns: 200, seed: 27 },
      );
    } finally {
      await srv.close();
    }
  });
});
