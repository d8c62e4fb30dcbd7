/**
 * The ACAL prompt texts (agents/acal/prompts.ts) as the stages actually send them, for one fixed
 * case: system and user message byte for byte. The scripted responders (test-support/) and any
 * recorded runs match on these strings, so a change here must be deliberate.
 */
import { describe, expect, it } from 'vitest';
import { FakeChatModel, type FakeCall } from '../../tests/support/fake-chat-model.js';
import { withPassageHandles } from '../common/passage-handles.js';
import type { AcalGraph } from './graph/types.js';
import type { CaseInput } from './llm/common.js';
import { generateArguments } from './llm/generate-arguments.js';
import { identifyRelations } from './llm/identify-relations.js';
import { judge, judgeSchema } from './llm/judge.js';
import { jsonSchemaFor } from '../../core/llm/json-schema.js';
import { decisionBeforeReasoning } from '../../tests/support/decision-order.js';
import { clashSchema, resolveClashes } from './llm/resolve-clashes.js';
import { scoreArguments, scoresSchema } from './llm/score-arguments.js';
import { selectTeam, teamSchema } from './llm/select-team.js';
import { selectTeamPrompt } from './prompts.js';
import { ACAL_TASKS } from './tasks.js';

const c: CaseInput = {
  task: ACAL_TASKS.hearsay,
  claim: ACAL_TASKS.hearsay.claim,
  caseText: 'At trial, the witness testified that her neighbour told her the defendant ran the red light.',
  evidence: [
    { id: 'fre-801', title: 'FRE 801', text: '(c) "Hearsay" means a statement that the declarant does not make while testifying.' },
    { id: 'fre-803', text: 'x'.repeat(705) },
  ],
};

const args = [
  {
    id: 's1',
    agent: 'Prosecutor',
    side: 'support' as const,
    text: 'The neighbour’s words are offered for their truth.',
    baseStrength: 0.8,
    citedPassageIds: ['fre-801'],
    status: 'accepted' as const,
    origin: 'llm' as const,
  },
  {
    id: 'a1',
    agent: 'Public Defender',
    side: 'attack' as const,
    text: 'The words are offered for their effect on the listener.',
    baseStrength: 0.4,
    citedPassageIds: [],
    status: 'proposed' as const,
    origin: 'llm' as const,
  },
];

const graph = {
  version: 1,
  itemId: 'hearsay-1',
  claim: { id: 'claim', text: c.claim, base: 0.5 },
  caseText: c.caseText,
  evidence: c.evidence,
  arguments: args,
  relations: [
    { from: 's1', to: 'a1', kind: 'attack', confidence: 0.9, origin: 'llm' },
    { from: 'a1', to: 's1', kind: 'attack', confidence: 0.9, origin: 'llm' },
  ],
  clash: { delta: 0.2, beta: 0.15, clamp: [0, 1], outcomes: [] },
  settings: { semantics: 'quadratic', threshold: 0.5, band: [0.49, 0.51] },
  revision: 0,
  result: {
    semantics: 'quadratic',
    claimStrength: 0.5012,
    strengths: { s1: 0.71, a1: 0.333 },
    effectiveBase: { s1: 0.8, a1: 0.4 },
    clashDelta: {},
    converged: true,
    method: 'topological',
    iterations: 1,
    residual: 0,
    thresholdVerdict: 'Yes',
    inBand: true,
    verdict: 'Yes',
    decidedBy: 'threshold',
    escalation: 'needed',
  },
} satisfies AcalGraph;

/** [system, user] of the one call a stage makes, with P1.. handles assigned in evidence order. */
async function sent(reply: string, stage: (m: FakeChatModel) => Promise<unknown>): Promise<[string, string]> {
  const model = new FakeChatModel([reply]);
  await withPassageHandles(async (h) => {
    c.evidence.forEach((p) => h.handle(p.id));
    await stage(model);
  });
  const call: FakeCall = model.calls[0];
  return [String(call.messages[0].content), String(call.messages[1].content)];
}

describe('ACAL reply schemas as sent', () => {
  it('put the reasoning before the decision: judge {reasoning, decision}, clash {reason, winner}, scores {note, score}', () => {
    for (const schema of [judgeSchema, clashSchema, scoresSchema(['s1', 'a1']), teamSchema(3)])
      expect(decisionBeforeReasoning(jsonSchemaFor(schema))).toEqual([]);
    expect(Object.keys((jsonSchemaFor(judgeSchema) as { properties: object }).properties)).toEqual(['reasoning', 'decision']);
  });
  it("select the team reason first ({reason, role}), in the schema and in the prompt's JSON template alike", () => {
    const item = (jsonSchemaFor(teamSchema(3)) as { properties: { selected: { items: { properties: object } } } }).properties.selected.items;
    expect(Object.keys(item.properties)).toEqual(['reason', 'role']);
    const template = selectTeamPrompt(c, 'support', 3).split('\n').at(-1)!;
    expect([...template.matchAll(/"(\w+)": "</g)].map((m) => m[1])).toEqual(['reason', 'role']);
  });
  it('hold a team to 2–3 agents', () => {
    expect((jsonSchemaFor(teamSchema(3)) as { properties: { selected: object } }).properties.selected).toMatchObject({ minItems: 2, maxItems: 3 });
    expect(teamSchema(3).safeParse({ selected: [{ role: 'Judge', reason: '' }] }).success).toBe(false);
  });
});

describe('ACAL prompts', () => {
  it('select-team sends the team-selection prompt, the roles in the seeded order (seed 4: IP Attorney, Paralegal, Law Clerk / Judicial Clerk, …)', async () => {
    const got = await sent('{"selected":[{"role":"Prosecutor"},{"role":"Judge"}]}', (m) => selectTeam(m, c, 'support', { maxAgents: 3, seed: 4 }));
    expect(got).toEqual(SELECT_TEAM);
  });
  it('generate-arguments sends the argument-writing prompt unchanged', async () => {
    const got = await sent('{"arguments":[{"text":"a","citedPassageIds":[]},{"text":"b","citedPassageIds":[]}]}', (m) =>
      generateArguments(m, c, 'Prosecutor', 'attack'),
    );
    expect(got).toEqual(GENERATE);
  });
  it('score-arguments sends the rubric prompt unchanged', async () => {
    const got = await sent('{"scores":[{"id":"s1","score":0.5},{"id":"a1","score":0.5}]}', (m) => scoreArguments(m, c, args));
    expect(got).toEqual(SCORE);
  });
  it('identify-relations sends the pair-classification prompt unchanged', async () => {
    const got = await sent('{"relations":[{"pair":"s1~a1","relation":"attack","confidence":0.9}]}', (m) => identifyRelations(m, c.task.context, args));
    expect(got).toEqual(RELATIONS);
  });
  it('resolve-clashes sends the clash prompt, the sides in the seeded order (seed 1: the supporting argument as A)', async () => {
    const got = await sent('{"winner":"A"}', (m) => resolveClashes(m, c, [{ support: 's1', attack: 'a1' }], args, { seed: 1 }));
    expect(got).toEqual(CLASH);
  });
  it('resolve-clashes with seed 4 shows the attacking argument as A, and "A" wins for the attacker', async () => {
    const model = new FakeChatModel(['{"reason":"r","winner":"A"}']);
    const r = await withPassageHandles(() => resolveClashes(model, c, [{ support: 's1', attack: 'a1' }], args, { seed: 4 }));
    expect(String(model.calls[0].messages[1].content)).toContain(
      `ARGUMENT A (attacks the claim): ${args[1].text}\n\nARGUMENT B (supports the claim): ${args[0].text}`,
    );
    expect(r.outcomes).toEqual([{ support: 's1', attack: 'a1', winner: 'a1', reason: 'r' }]);
    expect(r.presentation).toEqual([expect.objectContaining({ kind: 'clash sides', at: 's1~a1', order: ['attack', 'support'] })]);
  });
  it('judge sends the final-judge prompt with the graph unchanged', async () => {
    const got = await sent('{"decision":"Yes"}', (m) => judge(m, c, graph));
    expect(got).toEqual(JUDGE);
  });
});

// Rendered by the stages before the prompt texts moved into prompts.ts (literal snapshots); since issue 36
// every reply format puts the reasoning before the decision, and the team roles and the clash sides
// are shown in a seeded order.

/** Legal test, case and claim, as every stage sends them. */
const CASE_LINES = [
  'LEGAL TEST: Hearsay under the Federal Rules of Evidence: hearsay is a statement, other than one made by the declarant while testifying at the trial or hearing, offered in evidence to prove the truth of the matter asserted (FRE 801(c)). Non-assertive conduct is not a statement; a statement offered for another purpose (effect on the listener, notice, verbal act) is not hearsay. Decide whether the evidence is hearsay, not whether an exception makes it admissible.',
  '',
  'CASE: At trial, the witness testified that her neighbour told her the defendant ran the red light.',
  '',
  'CLAIM: The evidence described is hearsay: an out-of-court statement offered to prove the truth of the matter asserted (FRE 801(c)).',
];

/** The case header every stage but team selection sends: test, case, claim, evidence as P1.. handles. */
const CASE_HEADER = [
  ...CASE_LINES,
  '',
  'EVIDENCE (retrieved passages; cite by id):',
  '[P1] (c) "Hearsay" means a statement that the declarant does not make while testifying.',
  '[P2] ' + 'x'.repeat(700) + '…',
];

const SELECT_TEAM: [string, string] = [
  'You assemble expert legal teams.',
  [
    'TASK: select the support team — the legal agents best suited to construct SUPPORTING arguments (the claim is true) for this case.',
    '',
    ...CASE_LINES,
    '',
    'AVAILABLE AGENTS:',
    '- IP Attorney (Advisory & Transactional). Expertise: copyright, patent and trademark law; licensing; IP litigation. Priorities: protecting IP rights; lawful use. Style: technical-legal and specialised.',
    '- Paralegal (Research & Support). Expertise: case files; court filings and deadlines; document preparation. Priorities: accuracy of facts; procedural completeness. Style: detail-focused; checks what the record actually says.',
    '- Law Clerk / Judicial Clerk (Adjudication). Expertise: legal research; bench memos; rule and precedent analysis. Priorities: accurate analysis; clarity; grounding every step in authority. Style: analytical and precise; element-by-element application of the rule.',
    '- Compliance Officer (Advisory & Transactional). Expertise: regulatory law; internal policies; audits. Priorities: following rules and regulations; preventing violations. Style: policy-oriented and checklist-driven.',
    '- Corporate Counsel (Advisory & Transactional). Expertise: contracts; corporate governance; risk management. Priorities: minimising legal risk; compliance; commercial sense. Style: preventive and business-oriented.',
    '- Judge (Adjudication). Expertise: statutory interpretation; rules of evidence and procedure; precedent. Priorities: correct application of the law; impartiality; fair process. Style: neutral and principled; reasons from the governing rule to the facts.',
    '- Legal Analyst (Research & Support). Expertise: legal research; statute and case-law review; classification of legal issues. Priorities: objective analysis; clear categorisation; risk forecasting. Style: research-oriented and objective.',
    '- Prosecutor (Litigation & Advocacy). Expertise: criminal law; evidence; case building. Priorities: admissible proof; due process; public interest. Style: fact-centred and adversarial within the bounds of duty.',
    "- Private Practice Lawyer (Litigation & Advocacy). Expertise: civil litigation; trial advocacy; client counselling. Priorities: the client's position; practical outcomes; procedural strategy. Style: persuasive and pragmatic; builds the strongest case from the facts.",
    "- Public Defender (Litigation & Advocacy). Expertise: criminal defence; constitutional rights; evidentiary objections. Priorities: the accused's rights; fair trial; access to justice. Style: rights-centred advocacy; probes every weakness in the other side's proof.",
    '',
    'Choose 2 to 3 different agents whose expertise fits the legal issues of this case. Use the role names exactly as listed.',
    '',
    'Reply with JSON only, each reason first: {"selected": [{"reason": "<why this expert>", "role": "<role name>"}]}',
  ].join('\n'),
];

const GENERATE: [string, string] = [
  'You are a legal expert: Prosecutor (Litigation & Advocacy). Expertise: criminal law; evidence; case building. Priorities: admissible proof; due process; public interest. Style: fact-centred and adversarial within the bounds of duty.',
  [
    'TASK: write arguments ATTACKING the claim (reasons it is FALSE), as the Prosecutor.',
    '',
    ...CASE_HEADER,
    '',
    'Write between 2 and 5 arguments — as many as the evidence and the complexity of the case justify. Each argument must be specific to the facts of this case, apply the legal test precisely, and cite the ids of the evidence passages it relies on (an empty list if none applies). Do not invent passage ids.',
    '',
    'Reply with JSON only: {"arguments": [{"text": "<one argument>", "citedPassageIds": ["<id>", ...]}]}',
  ].join('\n'),
];

const SCORE: [string, string] = [
  'You are a strict evaluator of legal arguments.',
  [
    "TASK: score each argument's intrinsic strength on the rubric.",
    '',
    ...CASE_HEADER,
    '',
    'SCORING RUBRIC (be strict; penalise generic statements, reward case-specific legal precision):',
    '0.1–0.2: incorrect legal analysis or misidentification of key elements',
    '0.3–0.4: partially correct but missing critical components, or overly generic',
    '0.5–0.6: sound analysis with minor gaps or insufficient case-specific application',
    '0.7–0.8: strong analysis with specific facts and correct legal reasoning',
    '0.9–1.0: exceptional precision with authoritative citations and flawless logic (rare)',
    '',
    'ARGUMENTS:',
    '(s1) [supports the claim] The neighbour’s words are offered for their truth. (cites P1)',
    '(a1) [attacks the claim] The words are offered for their effect on the listener.',
    '',
    'Reply with JSON only, one entry per argument id, the note before the score: {"scores": {"<argument id>": {"note": "<one sentence>", "score": <0.1..1.0>}, ...}}',
  ].join('\n'),
];

const RELATIONS: [string, string] = [
  'You are an expert in legal argumentation and natural language inference.',
  [
    'TASK: classify the relation between each pair of legal arguments.',
    '',
    'CONTEXT: Hearsay under the Federal Rules of Evidence: hearsay is a statement, other than one made by the declarant while testifying at the trial or hearing, offered in evidence to prove the truth of the matter asserted (FRE 801(c)). Non-assertive conduct is not a statement; a statement offered for another purpose (effect on the listener, notice, verbal act) is not hearsay. Decide whether the evidence is hearsay, not whether an exception makes it admissible.',
    '',
    'PAIR s1~a1',
    '  A (supports the claim): The neighbour’s words are offered for their truth.',
    '  B (attacks the claim): The words are offered for their effect on the listener.',
    '',
    'For each pair: "attack" if A and B contradict or undermine each other; "support" if one reinforces or provides evidence for the other; "neutral" if they address different aspects or have no logical dependency. Judge the content, not merely the sides: arguments on opposite sides can be neutral. Give a confidence in [0, 1].',
    '',
    'Reply with JSON only, one entry per pair id: {"relations": {"<pair id>": {"relation": "attack|support|neutral", "confidence": <0..1>}, ...}}',
  ].join('\n'),
];

const CLASH: [string, string] = [
  'You are a legal reasoning expert adjudicating an argument clash.',
  [
    'TASK: resolve a clash between two conflicting arguments — which is stronger?',
    '',
    ...CASE_HEADER,
    '',
    'ARGUMENT A (supports the claim): The neighbour’s words are offered for their truth.',
    '',
    'ARGUMENT B (attacks the claim): The words are offered for their effect on the listener.',
    '',
    'Decide which argument is more legally sound for THIS case: which is more directly relevant to the facts, applies the correct legal standard, and reasons without error.',
    '',
    'Reply with JSON only, the reason first: {"reason": "<one or two sentences>", "winner": "A" | "B"}',
  ].join('\n'),
];

const JUDGE: [string, string] = [
  'You are a senior judge giving a final, binding decision.',
  [
    'TASK: final judgment on a borderline case. The argumentation graph ended in a near-tie; you must decide.',
    '',
    ...CASE_HEADER,
    '',
    'ARGUMENT GRAPH:',
    '(s1) [SUPPORTS; Prosecutor; base 0.80, final 0.71] The neighbour’s words are offered for their truth. (cites P1)',
    '(a1) [ATTACKS; Public Defender; base 0.40, final 0.33] The words are offered for their effect on the listener.',
    'RELATIONS: a1 attacks s1',
    'CLAIM STRENGTH σ = 0.501 (threshold 0.5)',
    '',
    'Perform an independent legal analysis: re-evaluate the evidence and the legal standard, resolve the key conflicts, and decide whether the claim holds. You must answer Yes or No.',
    '',
    'Reply with JSON only, the reasoning first: {"reasoning": "<2-3 sentences naming the decisive rule or fact>", "decision": "Yes" | "No"}',
  ].join('\n'),
];
