/**
 * The ACAL arena end to end against the scripted OpenAI-compatible server, through the real
 * ChatOpenAI client made by createChatModel.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runArena } from './arena.js';
import { recompute } from './graph/recompute.js';
import { acalTask } from './tasks.js';
import { scriptedArena } from './test-support/scripted-arena.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const evidence = [
  {
    id: 'fre-801',
    title: 'FRE 801',
    text: '"Hearsay" means a statement that the declarant does not make while testifying at the current trial or hearing, offered to prove the truth of the matter asserted.',
  },
  { id: 'fre-803', title: 'FRE 803', text: 'Exceptions to the rule against hearsay regardless of whether the declarant is available as a witness.' },
];

async function model(script = scriptedArena()) {
  srv = await startScriptedServer(script);
  return createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
}

const userOf = (r: { body: { messages: { role: string; content: string }[] } }) => r.body.messages.find((m) => m.role === 'user')!.content;

/** A writer reply's citations that are no handle its prompt shows as evidence ("[P1] text"). */
const unresolvedIn = (prompt: string, reply: { arguments: { citedPassageIds: string[] }[] }) => {
  const shown = new Set([...prompt.matchAll(/^\[(P\d+)\] /gm)].map((m) => m[1]));
  return reply.arguments.flatMap((a) => a.citedPassageIds).filter((c) => !shown.has(c)).length;
};

describe('ACAL arena (scripted OpenAI-compatible server)', () => {
  it('builds a scored, related, clash-resolved graph and decides a hearsay item Yes', async () => {
    const llm = await model();
    const { graph, trace } = await runArena(llm, {
      itemId: 'hearsay-train-1',
      task: acalTask('hearsay'),
      caseText: 'On the issue of whether Rebecca was ill, the fact that Rebecca told Ronald that she was unwell.',
      evidence,
    });
    // teams of 2 + 2, 2 arguments each → s1..s4, a1..a4
    expect(trace.teams.support.map((m) => m.role)).toEqual(['Law Clerk / Judicial Clerk', 'Prosecutor']);
    expect(graph.arguments.map((a) => a.id).sort()).toEqual(['a1', 'a2', 'a3', 'a4', 's1', 's2', 's3', 's4']);
    // the arguments are paired and listed in a seeded order (not supports first), recorded in the trace
    const order = trace.presentation.find((p) => p.kind === 'argument order')!;
    expect(order.order).toEqual(graph.arguments.map((a) => a.id));
    expect(order.order.slice(0, 4)).not.toEqual(['s1', 's2', 's3', 's4']);
    expect(trace.presentation.filter((p) => p.kind === 'team roles').map((p) => p.at)).toEqual(['support', 'attack']);
    expect(graph.arguments.find((a) => a.id === 'a3')!.agent).toBe('Legal Analyst');
    // base strengths from the rubric scorer; cited ids kept only when retrieved
    expect(graph.arguments.find((a) => a.id === 's1')!.baseStrength).toBe(0.8);
    expect(graph.arguments.find((a) => a.id === 's2')!.citedPassageIds).toEqual(['fre-803']);
    expect(trace.droppedCitations).toEqual(['s2', 's4', 'a2', 'a4'].map((argument) => ({ argument, ids: ['not-a-retrieved-id'] })));
    // C(8,2) = 28 pairs in ⌈28/10⌉ = 3 relation calls
    const relCalls = srv!.requests.filter((r) => userOf(r).startsWith('TASK: classify the relation'));
    expect(relCalls).toHaveLength(3);
    expect(trace.relationCalls).toBe(3);
    expect(userOf(relCalls[0]).match(/^PAIR /gm)).toHaveLength(10);
    expect(userOf(relCalls[2]).match(/^PAIR /gm)).toHaveLength(8);
    // confidence 0.5 (s2~a2) demoted to neutral → no edge either way; others bidirectional
    expect(trace.pairJudgements.find((j) => j.pair === 's2~a2' || j.pair === 'a2~s2')).toMatchObject({ relation: 'attack', kept: 'neutral' });
    expect(graph.relations.some((r) => (r.from === 's2' && r.to === 'a2') || (r.from === 'a2' && r.to === 's2'))).toBe(false);
    expect(graph.relations).toHaveLength(2 * 27);
    for (const r of graph.relations) expect(graph.relations.some((x) => x.from === r.to && x.to === r.from && x.kind === r.kind)).toBe(true);
    // clashes: opposite sides attacking each other with |Δτ| < 0.2 (0.75 vs 0.35/0.3 → none here)
    expect(trace.clashes).toBe(0);
    expect(graph.result).toMatchObject({ verdict: 'Yes', decidedBy: 'threshold', semantics: 'quadratic', converged: true });
    expect(graph.result!.claimStrength).toBeGreaterThan(0.51);
    expect(trace.judged).toBe(false);
    // every prompt that needs evidence carries the passage text; the gold label never appears
    const gen = srv!.requests.filter((r) => userOf(r).startsWith('TASK: write arguments'));
    expect(gen).toHaveLength(4);
    for (const r of gen) expect(userOf(r)).toContain('[P1] "Hearsay" means'); // evidence under handles, never its id or title
    for (const r of srv!.requests) expect(userOf(r)).not.toContain('FRE 801:');
    for (const r of srv!.requests) expect(JSON.stringify(r.body)).not.toContain('fre-801');
    // recomputation from the saved graph alone gives the same result
    expect(recompute(graph)).toEqual(graph.result);
  });

  it('equal scores across the sides trigger clash resolution: winners gain β, losers lose β', async () => {
    const llm = await model();
    const { graph, trace } = await runArena(llm, {
      itemId: 'tie',
      task: acalTask('hearsay'),
      caseText: 'NEAR-TIE: the fact that Ann nodded when asked whether the light was red.',
      evidence,
    });
    // equal scores 0.6 on both sides → every attacking cross pair (except the demoted one) clashes
    expect(trace.clashes).toBe(15);
    expect(srv!.requests.filter((r) => userOf(r).startsWith('TASK: resolve a clash'))).toHaveLength(15);
    expect(graph.clash.outcomes).toHaveLength(15);
    expect(graph.clash.outcomes.every((o) => o.winner === o.support)).toBe(true);
    // winners gain β = 0.15, losers lose it
    expect(graph.result!.effectiveBase.s1).toBeCloseTo(0.75, 12);
    expect(graph.result!.effectiveBase.a1).toBeCloseTo(0.45, 12);
  });

  it('without clash resolution the symmetric tie escalates to the judge, whose decision is binding', async () => {
    const llm = await model();
    const { graph, trace } = await runArena(
      llm,
      { itemId: 'tie', task: acalTask('hearsay'), caseText: 'NEAR-TIE: the fact that Ann nodded.', evidence },
      { clashResolution: false },
    );
    expect(graph.result!.inBand).toBe(true);
    expect(trace.judged).toBe(true);
    expect(graph.judge).toMatchObject({ decision: 'Yes', reasoning: 'scripted judge', revision: 0 });
    expect(graph.result).toMatchObject({ decidedBy: 'judge', escalation: 'done', verdict: 'Yes' });
    const j = srv!.requests.find((r) => userOf(r).startsWith('TASK: final judgment'))!;
    expect(userOf(j)).toContain('ARGUMENT GRAPH:');
    expect(userOf(j)).toContain('[P1] "Hearsay" means');
    expect(userOf(j)).toMatch(/\(a4\) \[ATTACKS; Legal Analyst; base 0\.60, final 0\.\d\d\]/);
  });

  it('retries once on an unparseable reply and still completes; semantics are selectable', async () => {
    const llm = await model(scriptedArena({ garbleFirst: 'score' }));
    const { graph } = await runArena(
      llm,
      { itemId: 'h0', task: acalTask('hearsay'), caseText: 'On the issue of whether James is smart, the fact that James came first in his class.', evidence },
      { semantics: 'dfquad' },
    );
    expect(graph.result).toMatchObject({ verdict: 'No', semantics: 'dfquad' });
    const scoreCalls = srv!.requests.filter((r) => userOf(r).startsWith('TASK: score each argument'));
    expect(scoreCalls).toHaveLength(5); // 4 agents + 1 retry
  });

  it("counts only the accepted reply's citations naming no handle shown, and drops a real id written out (before: fre-801 written raw was kept as cited)", async () => {
    const base = scriptedArena();
    const counted: number[] = []; // independently: per accepted writer reply, its citations that are no handle its request shows
    let refused = false;
    const llm = await model((req) => {
      const text = userOf(req);
      if (!text.startsWith('TASK: write arguments') || !/as the Prosecutor\./.test(text)) {
        const reply = base(req);
        if (text.startsWith('TASK: write arguments')) counted.push(unresolvedIn(text, JSON.parse(reply.content!.replace(/^```json\n|\n```$/g, ''))));
        return reply;
      }
      if (!refused) {
        refused = true; // one argument: its schema asks for 2–5, so it is refused and asked again; its citation is none
        return { content: JSON.stringify({ arguments: [{ text: 'The statement is hearsay.', citedPassageIds: ['P1, P2'] }] }) };
      }
      const reply = {
        arguments: [
          { text: 'Prosecutor: the statement is offered for its truth.', citedPassageIds: ['P1', 'fre-801'] },
          { text: 'Prosecutor: no exception applies.', citedPassageIds: ['P1 and P2', 'P2'] },
        ],
      };
      counted.push(unresolvedIn(text, reply));
      return { content: JSON.stringify(reply) };
    });
    const { graph, trace } = await runArena(llm, {
      itemId: 'hearsay-train-1',
      task: acalTask('hearsay'),
      caseText: 'On the issue of whether Rebecca was ill, the fact that Rebecca told Ronald that she was unwell.',
      evidence,
    });
    expect(refused).toBe(true);
    expect(counted).toHaveLength(4); // one accepted reply per writer
    expect(trace.unresolvedCitations).toBe(counted.reduce((a, b) => a + b, 0));
    expect(trace.unresolvedCitations).toBe(5); // 'not-a-retrieved-id' of 3 writers, the Prosecutor's fre-801 and "P1 and P2"
    const prosecutor = graph.arguments.filter((a) => a.agent === 'Prosecutor');
    expect(prosecutor.map((a) => a.citedPassageIds)).toEqual([['fre-801'], ['fre-803']]);
    expect(trace.droppedCitations.filter((d) => prosecutor.some((a) => a.id === d.argument)).map((d) => d.ids)).toEqual([['fre-801'], ['P1 and P2']]);
  });

  it('is deterministic given the same replies: two runs give identical graphs despite concurrent calls', async () => {
    const llm = await model();
    const input = { itemId: 'd', task: acalTask('hearsay'), caseText: 'NEAR-TIE: the fact that Ann said the light was red.', evidence };
    const a = await runArena(llm, input);
    const b = await runArena(llm, input);
    expect(JSON.stringify(b.graph)).toBe(JSON.stringify(a.graph));
  });
});
