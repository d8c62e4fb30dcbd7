/**
 * A question whose options leave fewer than 2 with text (one option; the others empty) is one failed
 * item in every multiple-choice system — CASE, its baselines, MAD, MAD's baselines, EMAR — its error
 * naming the item and the field, no request sent, the run going on to the next item: with one option
 * the reply schema's only answer is that option, right whenever it is the gold whatever the model read.
 * MAD records the item as its other failed items (round flags false: its `outcome` metrics).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { runExperiment } from '../eval/runner.js';
import type { AgentSystem } from '../eval/types.js';
import { createRetrievalTools } from '../retrieval/tools/index.js';
import { startScriptedServer, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { createBaseline } from './case/baselines/baseline-system.js';
import { createCaseLlmSystem } from './case/system.js';
import { getPassageFrom, keywordRetriever, PASSAGES } from './case/test-support/fixtures.js';
import { questionToCase } from './emar/cases.js';
import { createEmarSystem } from './emar/system.js';
import { bowEmbedder } from './emar/test-support/bow-embedder.js';
import { createMadSystem } from './mad/system.js';

let srv: ScriptedServer;
let dir: string;
let items: Question[];
beforeAll(async () => {
  // every request is an error: a malformed item must send none
  srv = await startScriptedServer(() => ({ status: 500, error: 'no request expected' }));
  dir = mkdtempSync(join(tmpdir(), 'offered-options-'));
  const q = (await loadQuestions('barexam', 'val'))[0];
  const gold = q.choices['ABCD'.indexOf(q.answer)];
  items = [
    { ...q, id: `${q.id}-one`, choices: [gold], answer: 'A' },
    { ...q, id: `${q.id}-emptied`, choices: [gold, '', ' ', ''], answer: 'A' },
  ];
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const SYSTEMS: [string, () => AgentSystem<Question>, string][] = [
  ['MAD', () => createMadSystem('mad', { rounds: 2, judgeEachRound: true }), 'a debate'],
  ["MAD's single-rag", () => createMadSystem('single-rag'), 'single-rag'],
  ["MAD's self-consistency", () => createMadSystem('self-consistency', { samples: 3 }), 'self-consistency'],
  ['CASE', () => createCaseLlmSystem(), 'CASE'],
  ['the bm25-rag baseline', () => createBaseline('bm25-rag'), 'the baseline'],
  ['EMAR', () => createEmarSystem({ toCase: questionToCase, embedder: bowEmbedder() }), 'EMAR'],
];

describe('an item with fewer than 2 options with text', () => {
  it.each(SYSTEMS)('%s: one failed item naming its id and field, no request, the run goes on', async (name, system, says) => {
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0 }));
    const bm25 = keywordRetriever('bm25');
    const docs = { size: Object.keys(PASSAGES).length, get: getPassageFrom(PASSAGES) };
    const runDir = join(dir, name.replace(/\W+/g, '-'));
    const before = srv.requests.length;
    const r = await runExperiment({
      runDir,
      system: system(),
      items,
      gold: (q) => q.answer,
      makeContext: (_, { seed }) => ({
        seed,
        tools: createRetrievalTools({ retrievers: { bm25 }, docs }),
        retrievers: { bm25 },
        llm,
        getPassage: docs.get,
        options: {},
      }),
      config: {},
      seed: 13,
    });
    expect([r.ran, r.failed, srv.requests.length - before]).toEqual([2, 2, 0]);
    const [one, emptied] = items.map((it) => r.results.find((x) => x.id === it.id)!);
    expect(one.error).toBe(
      `INVALID_INPUT: question ${items[0].id}: field "choices" has 1 option with text (A): ${says} needs at least 2 options with text to choose between`,
    );
    expect(emptied.error).toBe(
      `INVALID_INPUT: question ${items[1].id}: field "choices[1]" is empty (and 2 more), leaving 1 option with text (A): ${says} needs at least 2 options with text to choose between`,
    );
    expect([one.correct, emptied.correct]).toEqual([false, false]);
    // nothing searched, argued or answered: no metric but MAD's round flags (false: wrong, as its `outcome` kind reads a
    // failed item) and what CASE records on each of its failed items (its counts of what ran: none)
    const recorded = {
      MAD: { correctAfterRound1: false, correctAfterRound2: false },
      CASE: { abstentions: 0, picksBeyondK: 0, repeatedToolCalls: 0, toolCallsNotOffered: 0, unresolvedCitations: 0 },
    }[name];
    for (const x of [one, emptied]) expect(x.metrics).toEqual(recorded);
  });
});
