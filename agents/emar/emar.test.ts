/**
 * EMAR's recursion against the scripted OpenAI-compatible server (real ChatOpenAI client via
 * createChatModel) with a deterministic bag-of-words embedder: a convergence stop, a depth-3 stop,
 * a late convergence, and the judge's answer becoming the prediction.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptReply } from '../../tests/support/scripted-openai-server.js';
import type { Question, TaskExample } from '../../corpora/types.js';
import type { SystemContext } from '../../eval/types.js';
import { cosineSimilarity } from './convergence.js';
import { questionToCase, taskExampleToCase, TASK_FRAMINGS, letterToLabel } from './cases.js';
import { createEmarSystem } from './system.js';
import { bowEmbedder } from './test-support/bow-embedder.js';

const fakeEmbedder = bowEmbedder();

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  fakeEmbedder.calls = [];
});

const sys = (r: RecordedRequest): string => r.body.messages[0].content;
const user = (r: RecordedRequest): string => r.body.messages[r.body.messages.length - 1].content;
const role = (r: RecordedRequest) => {
  const s = sys(r);
  if (s.startsWith('You are a fact-finding clerk')) return 'facts';
  if (s.startsWith('You are the Proponent')) return user(r).includes("The Opponent's critique") ? 'response' : 'argument';
  if (s.startsWith('You are the Opponent')) return 'critique';
  if (s.startsWith('You are a neutral Judge')) return 'judge';
  return 'unknown';
};
const json = (o: unknown): ScriptReply => ({ content: JSON.stringify(o) });
const claim = (answer: string, text: string) => json({ answer, claim: text, argument: `because ${text}`, evidence: ['the deed was recorded'] });

const PROPONENT = 'the buyer holds title because the deed was recorded first';
const OPPOSED = 'a bona fide purchaser without notice prevails over an unrecorded interest regardless of timing';

async function run(script: (r: RecordedRequest) => ScriptReply, item: Question, maxDepth?: number) {
  srv = await startScriptedServer(script);
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0 }));
  const ctx: SystemContext = { seed: 1, tools: [], retrievers: {}, llm, getPassage: async () => undefined, options: {} };
  return createEmarSystem<Question>({ embedder: fakeEmbedder, toCase: questionToCase, maxDepth })(item, ctx);
}

const q: Question = {
  id: 'mbe-1',
  prompt: 'O conveyed Blackacre to A, who did not record. O then conveyed to B, who recorded.',
  question: 'Who owns Blackacre?',
  choices: ['A', 'B', 'O', 'Nobody'],
  answer: 'B',
  goldPassageIds: ['p-gold'],
};

describe('EMAR recursion (scripted server)', () => {
  it('stops at convergence when the opponent’s claim matches the proponent’s (similarity ≥ 0.85)', async () => {
    const out = await run((r) => {
      switch (role(r)) {
        case 'facts':
          return json({ facts: ['O conveyed to A', 'A did not record', 'B recorded'] });
        case 'argument':
        case 'response':
          return claim('B', PROPONENT);
        case 'critique':
          return claim('B', PROPONENT);
        case 'judge':
          return json({ established_facts: ['B recorded first'], answer: '(B)', rationale: 'race-notice' });
        default:
          return { status: 500 };
      }
    }, q);
    expect(srv!.requests.map(role)).toEqual(['facts', 'argument', 'critique', 'response', 'judge']);
    expect(out.prediction).toBe('B');
    expect(out.trace.stop).toBe('convergence');
    expect(out.metrics).toMatchObject({ depth: 1, converged: true, partiesAgree: true });
    expect(out.metrics!.finalSimilarity).toBeGreaterThanOrEqual(0.85);
    // the extracted facts reach the debaters and the judge; gold passage ids never do
    expect(user(srv!.requests[1])).toContain('- B recorded');
    expect(srv!.requests.every((r) => !r.text.includes('p-gold'))).toBe(true);
    expect(fakeEmbedder.calls).toHaveLength(1);
  });

  it('stops at depth 3 when the parties never converge, and the judge sees both final positions', async () => {
    const out = await run((r) => {
      switch (role(r)) {
        case 'facts':
          return json({ facts: ['B recorded'] });
        case 'argument':
        case 'response':
          return claim('B', PROPONENT);
        case 'critique':
          return claim('A', OPPOSED);
        case 'judge':
          return json({ established_facts: [], answer: 'A', rationale: 'notice' });
        default:
          return { status: 500 };
      }
    }, q);
    expect(srv!.requests.map(role)).toEqual(['facts', 'argument', 'critique', 'response', 'critique', 'response', 'critique', 'response', 'judge']);
    expect(out.trace.stop).toBe('max-depth');
    expect(out.metrics).toMatchObject({ depth: 3, converged: false, partiesAgree: false, judgeFollowsProponent: false });
    expect(out.metrics!.finalSimilarity).toBeLessThan(0.85);
    expect(out.prediction).toBe('A');
    const judgeReq = user(srv!.requests.at(-1)!);
    expect(judgeReq).toContain(PROPONENT);
    expect(judgeReq).toContain(OPPOSED);
  });

  it('shows the Proponent its own argument so far beside the critique it answers, so it can hold it (paper Table 1, Response)', async () => {
    // a model that holds its answer when it sees its own argument, and gives in to the critique when it does not
    const held = (r: RecordedRequest) => user(r).includes(`Your argument so far:\nProponent (answer B): ${PROPONENT}`);
    const out = await run((r) => {
      switch (role(r)) {
        case 'facts':
          return json({ facts: ['B recorded'] });
        case 'argument':
          return claim('B', PROPONENT);
        case 'response':
          return held(r) ? claim('B', PROPONENT) : claim('A', OPPOSED);
        case 'critique':
          return claim('A', OPPOSED);
        case 'judge':
          return json({ established_facts: [], answer: user(r).includes('Proponent (answer B)') ? 'B' : 'A', rationale: 'r' });
        default:
          return { status: 500 };
      }
    }, q);
    const responses = srv!.requests.filter((r) => role(r) === 'response').map(user);
    expect(responses).toHaveLength(3);
    for (const text of responses) {
      expect(text).toContain(`Your argument so far:\nProponent (answer B): ${PROPONENT}\nReasoning: because ${PROPONENT}`);
      expect(text).toContain(`The Opponent's critique of your argument:\nOpponent (answer A): ${OPPOSED}`);
    }
    // before, the Response saw the critique alone: this Proponent gave in at depth 1 and the run read "converged", answer A
    expect(out.metrics).toMatchObject({ depth: 3, converged: false, partiesAgree: false });
    expect(out.prediction).toBe('B');
  });

  it('converges in round 2 after the opponent concedes, and honours a smaller max depth', async () => {
    const script = (r: RecordedRequest): ScriptReply => {
      switch (role(r)) {
        case 'facts':
          return json({ facts: [] });
        case 'argument':
        case 'response':
          return claim('B', PROPONENT);
        case 'critique':
          // concede on the second critique (it sees the proponent's response to the first)
          return srv!.requests.filter((x) => role(x) === 'critique').length >= 2 ? claim('B', PROPONENT) : claim('A', OPPOSED);
        case 'judge':
          return json({ established_facts: [], answer: 'B', rationale: 'r' });
        default:
          return { status: 500 };
      }
    };
    const out = await run(script, q);
    expect(out.trace.stop).toBe('convergence');
    expect(out.metrics!.depth).toBe(2);
    await srv!.close();
    const capped = await run(script, q, 1);
    expect(capped.trace.stop).toBe('max-depth');
    expect(capped.metrics!.depth).toBe(1);
  });

  it('asks again when a party names an option that does not exist', async () => {
    const out = await run((r) => {
      if (role(r) === 'facts') return json({ facts: [] });
      if (role(r) === 'argument') return r.body.messages.length > 2 ? claim('B', PROPONENT) : claim('Q', PROPONENT);
      if (role(r) === 'judge') return json({ established_facts: [], answer: 'D', rationale: 'r' });
      return claim('B', PROPONENT);
    }, q);
    expect(srv!.requests.map(role).slice(0, 3)).toEqual(['facts', 'argument', 'argument']);
    expect(user(srv!.requests[2])).toMatch(/could not be parsed.*expected one of A, B, C, D/);
    expect(out.prediction).toBe('D');
  });
});

describe('EMAR helpers', () => {
  it('cosine similarity of vectors', () => {
    expect(cosineSimilarity([1, 0], [1, 0])).toBeCloseTo(1);
    expect(cosineSimilarity([1, 0], [0, 2])).toBeCloseTo(0);
    expect(cosineSimilarity([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2);
    expect(() => cosineSimilarity([1], [1, 0])).toThrow(/dimension/);
  });

  it('frames a LegalBench hearsay example as a two-option case and maps the letter back to the label', () => {
    const ex: TaskExample = { id: 'h1', text: 'On the issue of whether X was angry, the fact that X said "I am angry".', label: 'No' };
    const c = taskExampleToCase(ex, TASK_FRAMINGS.hearsay);
    expect(c.choices).toEqual(['Yes', 'No']);
    expect(c.evidence).toBe(ex.text);
    expect(letterToLabel('B', TASK_FRAMINGS.hearsay)).toBe('No');
    expect(() => letterToLabel('C', TASK_FRAMINGS.hearsay)).toThrow(/not an option/);
  });
});
