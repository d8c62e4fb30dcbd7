/**
 * Every agent system against a schema-following (guided-decoding) scripted server, through the
 * factory's real ChatOpenAI client: the server emits JSON only for requests that carry a schema
 * (response_format json_schema or a forced tool call) and prose otherwise, as the probe's server
 * did. With structuredOutput json_schema or tool every structured step carries its schema and
 * succeeds: no item fails, no step fails, nothing is decided by a default. With prompt-only the
 * same server makes the steps fail, and those failures are recorded and counted, never hidden.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Question } from '../corpora/types.js';
import { loadTradeSecretModel } from '../corpora/trade-secret.js';
import type { SystemContext, SystemOutcome } from '../eval/types.js';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import type { StructuredOutputMode } from '../core/llm/structured.js';
import { setLogLevel } from '../core/log.js';
import {
  schemaConstrained,
  startScriptedServer,
  type RecordedRequest,
  type ScriptReply,
  type ScriptedServer,
} from '../tests/support/scripted-openai-server.js';
import { runArena } from './acal/arena.js';
import { acalTask } from './acal/tasks.js';
import { scriptedArena } from './acal/test-support/scripted-arena.js';
import { createCase } from './case/index.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, searchTool } from './case/test-support/fixtures.js';
import { questionToCase } from './emar/cases.js';
import { createEmarSystem } from './emar/system.js';
import { createMad } from './mad/debate.js';
import { briefReply, debaterLetter, judgeReply, roleOf, roundOf } from './mad/test-support/script.js';
import { buildScenarios } from './threeply/scenarios.js';
import { createThreePlySystem } from './threeply/system.js';
import { rulesScript } from './threeply/test-support/scripted-threeply.js';
import { createRetrievalTools } from '../retrieval/tools/index.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  setLogLevel('info');
});

type Script = (req: RecordedRequest, i: number) => ScriptReply | Promise<ScriptReply>;

async function serve(script: Script, mode: StructuredOutputMode) {
  const s = schemaConstrained(script);
  srv = await startScriptedServer(s);
  const llm = createChatModel(
    llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000, structuredOutput: mode }),
  );
  return { llm, stats: s };
}

const bm25 = keywordRetriever('bm25', PASSAGES);
const ctx = (llm: SystemContext['llm'], tools: SystemContext['tools'] = []): SystemContext => ({
  seed: 3,
  tools,
  retrievers: { bm25 },
  llm,
  getPassage: getPassageFrom(PASSAGES),
  options: { k: 2 },
});

// CASE: advocates search once then answer with JSON text (not schema-bound: a loop with tools);
// jurors vote B.
const caseScript: Script = (req) => {
  if (/juror on a panel/.test(JSON.stringify(req.body.messages))) return { content: JSON.stringify({ reasoning: 'FRE 401 and 402.', vote: 'B' }) };
  const toolMsgs = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
  if (req.body.tools?.length && !req.body.tool_choice && toolMsgs.length === 0)
    return { toolCalls: [{ name: 'bm25_search', args: { query: 'impeach own witness relevant' } }] };
  const ids = toolMsgs.flatMap((m) => JSON.parse(m.content).results.map((r: { id: string }) => r.id));
  const seen = ids.length ? ids : [...JSON.stringify(req.body.messages).matchAll(/(fre\d+|voucher|surprise)\b/g)].map((m) => m[1]);
  return { content: JSON.stringify({ analysis: 'ok', evidence: [...new Set(seen)].slice(0, 2).map((id) => ({ id, justification: 'on point' })) }) };
};

const madScript: Script = (req) => {
  const role = roleOf(req);
  if (role === 'judge') return judgeReply('B');
  if (role === 'debater') return briefReply(debaterLetter(req), roundOf(req));
  return { status: 500, error: `unexpected ${role}` };
};

const emarScript: Script = (req) => {
  const s: string = req.body.messages[0].content;
  if (s.startsWith('You are a fact-finding clerk')) return { content: JSON.stringify({ facts: ['B recorded first'] }) };
  if (s.startsWith('You are a neutral Judge')) return { content: JSON.stringify({ established_facts: ['B recorded'], answer: 'B', rationale: 'race-notice' }) };
  return { content: JSON.stringify({ answer: 'B', claim: 'B holds title because B recorded first', argument: 'recording act', evidence: ['B recorded'] }) };
};

const emarItem: Question = {
  id: 'mbe-9',
  prompt: 'O conveyed Blackacre to A, who did not record. O then conveyed to B, who recorded.',
  question: 'Who owns Blackacre?',
  choices: ['A', 'B', 'O', 'Nobody'],
  answer: 'B',
  goldPassageIds: [],
};
const triple = buildScenarios({ mode: 'arguable', n: 1, seed: 11 }, loadTradeSecretModel())[0];

const systems: Record<string, { script: Script; run: (llm: NonNullable<SystemContext['llm']>) => Promise<SystemOutcome> }> = {
  case: { script: caseScript, run: (llm) => createCase({ k: 2 })(QUESTION, ctx(llm, [searchTool('bm25_search', bm25, PASSAGES)])) },
  mad: {
    script: madScript,
    run: (llm) => createMad({ rounds: 1 })(QUESTION, ctx(llm, createRetrievalTools({ retrievers: { bm25 }, docs: { get: getPassageFrom(PASSAGES) } }))),
  },
  emar: {
    script: emarScript,
    run: (llm) =>
      createEmarSystem<Question>({
        embedder: { id: 'const', dimension: 2, embed: async (t) => t.map(() => new Float32Array([1, 0])) },
        toCase: questionToCase,
      })(emarItem, ctx(llm)),
  },
  threeply: { script: rulesScript(), run: (llm) => createThreePlySystem({ kind: 'reflective', factors: loadTradeSecretModel() })(triple, ctx(llm)) },
  acal: {
    script: scriptedArena(),
    run: async (llm) => {
      const { graph, trace } = await runArena(llm, {
        itemId: 'hearsay-1',
        task: acalTask('hearsay'),
        caseText: 'On the issue of whether the light was red, the witness testified that her friend told her the light was red.',
        evidence: [{ id: 'fre-801', title: 'FRE 801', text: '"Hearsay" means a statement offered to prove the truth of the matter asserted.' }],
      });
      return { prediction: graph.result!.verdict, trace: trace as unknown as Record<string, unknown> };
    },
  },
};

describe('agent systems against a schema-following server', () => {
  for (const mode of ['json_schema', 'tool'] as const)
    for (const [name, sys] of Object.entries(systems))
      it(`${name} (${mode}): every structured step carries its schema and succeeds; no failed item or step`, async () => {
        const { llm, stats } = await serve(sys.script, mode);
        const out = await sys.run(llm);
        expect(out.error).toBeUndefined();
        expect(out.stepFailures).toBeUndefined();
        expect(out.prediction).not.toBeNull();
        expect(stats.constrained).toBeGreaterThan(0);
        for (const r of srv!.requests) if (mode === 'tool' && r.body.tool_choice) expect(r.body.response_format).toBeUndefined();
      }, 60_000);

  it('CASE with prompt-only output against that server: the item fails with every unparseable vote counted (no tie-break)', async () => {
    setLogLevel('silent');
    const { llm } = await serve(caseScript, 'prompt');
    const out = await systems.case.run(llm);
    expect(out.prediction).toBeNull();
    expect(out.error).toMatch(/^LLM_OUTPUT_INVALID: .*no valid juror vote/);
    expect(out.stepFailures).toMatchObject({ 'juror vote': 3 });
    expect((out.trace as { verdict?: { confidence: string } }).verdict?.confidence).toBe('none');
  }, 60_000);
});
