import { afterEach, describe, expect, it } from 'vitest';
import type { TaskExample } from '../../../corpora/types.js';
import { llmConfigSchema } from '../../../core/config.js';
import { createChatModel } from '../../../core/llm/factory.js';
import { FakeChatModel } from '../../../tests/support/fake-chat-model.js';
import { requestedSchema, schemaFollowing, startScriptedServer, type ScriptedServer } from '../../../tests/support/scripted-openai-server.js';
import { createChainOfThoughtSystem } from './chain-of-thought.js';
import { createStandardPromptingSystem } from './standard-prompting.js';

const fewShot: TaskExample[] = [{ id: 'e1', text: 'A witness repeats what her neighbour told her about the fire.', label: 'Yes' } as TaskExample];
const item = { id: 'q1', text: 'The letter is offered only to show the buyer had notice of the defect.', label: 'No' } as TaskExample;

async function ask(make: typeof createChainOfThoughtSystem) {
  const model = new FakeChatModel(['{"reasoning":"offered for notice, not truth","answer":"No"}']);
  const out = await make({ task: 'hearsay', fewShot })(item, { llm: model } as never);
  const [system, user] = model.calls[0].messages.map((m) => String(m.content));
  return { out, system, user };
}

describe('ACAL prompting baselines (SP and CoT share one template)', () => {
  it('both send the legal test, the few-shot examples, the case and the question; only the instruction and reply format differ', async () => {
    const sp = await ask(createStandardPromptingSystem);
    const cot = await ask(createChainOfThoughtSystem);
    expect(sp.system).toBe(cot.system);
    for (const p of [sp.user, cot.user]) {
      expect(p).toContain('LEGAL TEST: Hearsay');
      expect(p).toContain('Case: A witness repeats what her neighbour told her about the fire.\nAnswer: Yes');
      expect(p).toContain(`Case: ${item.text}`);
      expect(p).toMatch(/QUESTION: Is the following claim true for this case\?/);
    }
    expect(sp.user).toContain('answer the legal classification question directly');
    expect(sp.user).not.toMatch(/step by step/i);
    expect(sp.user.endsWith('{"answer": "Yes" | "No"}')).toBe(true);
    // CoT: the reasoning is asked for before the label, in the instruction and in the reply's key order
    expect(cot.user).toMatch(/reasoning step by step first/);
    const reply = cot.user.slice(cot.user.lastIndexOf('{'));
    expect(reply.indexOf('"reasoning"')).toBeLessThan(reply.indexOf('"answer"'));
  });

  it('the prediction is the label; only CoT keeps the reasoning in its trace', async () => {
    const sp = await ask(createStandardPromptingSystem);
    const cot = await ask(createChainOfThoughtSystem);
    expect(sp.out.prediction).toBe('No');
    expect(cot.out.prediction).toBe('No');
    expect(sp.out.trace).toMatchObject({ system: 'sp' });
    expect(sp.out.trace).not.toHaveProperty('reasoning');
    expect(cot.out.trace).toMatchObject({ system: 'cot', reasoning: 'offered for notice, not truth' });
  });
});

describe('ACAL prompting baselines on the wire (a schema-following server)', () => {
  let srv: ScriptedServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });

  for (const mode of ['json_schema', 'tool'] as const)
    it(`${mode}: SP's request schema is {answer} alone, as its prompt asks; CoT's is {reasoning, answer}, the reasoning first`, async () => {
      srv = await startScriptedServer(schemaFollowing({ fill: (v) => ({ ...v, answer: 'No' }) }));
      const llm = createChatModel(
        llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000, structuredOutput: mode }),
      );
      const ctx = { llm } as never;
      const sp = await createStandardPromptingSystem({ task: 'hearsay', fewShot })(item, ctx);
      const cot = await createChainOfThoughtSystem({ task: 'hearsay', fewShot })(item, ctx);
      expect(srv.requests).toHaveLength(2);
      const [spSchema, cotSchema] = srv.requests.map((r) => requestedSchema(r));
      if (mode === 'tool') for (const r of srv.requests) expect(r.body.response_format).toBeUndefined();
      expect(Object.keys(spSchema?.properties ?? {})).toEqual(['answer']);
      expect(spSchema?.required).toEqual(['answer']);
      expect(Object.keys(cotSchema?.properties ?? {})).toEqual(['reasoning', 'answer']);
      expect(sp.prediction).toBe('No');
      expect(cot.prediction).toBe('No');
      expect(sp.trace).not.toHaveProperty('reasoning');
    });
});
