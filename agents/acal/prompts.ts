/**
 * Prompts of the ACAL arena (paper §3.1–3.4), one system message and one request builder per
 * stage: team selection (eq. 3.1), argument generation (eq. 3.2), rubric scoring (Table 2),
 * relation identification (§3.2.4), clash resolution (§3.2.5) and the final judge (§3.4). Every
 * reply is a JSON object (zod-parsed in llm/*.ts). Each request starts with a `TASK: ...` line,
 * which the scripted responders in test-support/ match on.
 */
import { passageHandles } from '../common/passage-handles.js';
import { cutFrom } from '../common/question-text.js';
import type { AcalGraph } from './graph/types.js';
import type { CaseInput, EvidencePassage } from './llm/common.js';
import { DEFAULT_PASSAGE_CHARS } from './passage-chars.js';
import { describeRole, LEGAL_ROLES, roleByName, type LegalRole } from './roles.js';
import { cutUnits } from '../../core/truncate.js';

export function formatEvidence(evidence: EvidencePassage[], maxChars = DEFAULT_PASSAGE_CHARS): string {
  if (!evidence.length) return '(no passages retrieved)';
  const h = passageHandles(); // one map for the whole block: outside an item's scope each call would be a fresh map (every passage P1)
  return (
    evidence
      // handle + text only: a title (some corpora title every distractor and no gold passage) would tell them apart
      .map((p) => `[${h.handle(p.id)}] ${p.text.length > maxChars ? cutUnits(p.text, maxChars) + '…' : p.text}`)
      .join('\n')
  );
}

/**
 * What the trace records of `formatEvidence`'s cut: `passageChars`, and each passage longer than it
 * with `cutFrom`, its length (report.md's ACAL section counts them: report-section.ts).
 */
export function evidenceCutTrace(evidence: EvidencePassage[], maxChars = DEFAULT_PASSAGE_CHARS) {
  const evidenceCut = evidence.flatMap((p) => {
    const n = cutFrom(p.text, maxChars, false); // formatEvidence cuts the raw text
    return n !== undefined ? [{ id: p.id, cutFrom: n }] : [];
  });
  return { passageChars: maxChars, evidenceCut };
}

/** The legal test, the case, the claim and (by default) the retrieved evidence. */
export function caseHeader(c: CaseInput, withEvidence = true): string {
  return [
    `LEGAL TEST: ${c.task.context}`,
    `CASE: ${c.caseText}`,
    `CLAIM: ${c.claim}`,
    ...(withEvidence ? [`EVIDENCE (retrieved passages; cite by id):\n${formatEvidence(c.evidence, c.passageChars)}`] : []),
  ].join('\n\n');
}

// --- adaptive agent selection (eq. 3.1) ---

export const SELECT_TEAM_SYSTEM = 'You assemble expert legal teams.';

/** `roles`: the pool in the order shown (seeded per item and side; llm/select-team.ts). */
export function selectTeamPrompt(c: CaseInput, side: 'support' | 'attack', maxAgents: number, roles: readonly LegalRole[] = LEGAL_ROLES): string {
  const goal = side === 'support' ? 'SUPPORTING arguments (the claim is true)' : 'ATTACKING arguments (the claim is false)';
  return [
    `TASK: select the ${side} team — the legal agents best suited to construct ${goal} for this case.`,
    caseHeader(c, false),
    `AVAILABLE AGENTS:\n${roles.map((r) => `- ${describeRole(r)}`).join('\n')}`,
    `Choose ${maxAgents < 2 ? maxAgents : `2 to ${maxAgents}`} different agents whose expertise fits the legal issues of this case. Use the role names exactly as listed.`,
    'Reply with JSON only, each reason first: {"selected": [{"reason": "<why this expert>", "role": "<role name>"}]}',
  ].join('\n\n');
}

// --- argument generation (eq. 3.2) ---

export function generateArgumentsSystem(role: string): string {
  const persona = roleByName(role);
  return `You are a legal expert: ${persona ? describeRole(persona) : role}`;
}

export function generateArgumentsPrompt(c: CaseInput, role: string, side: 'support' | 'attack'): string {
  const goal = side === 'support' ? 'arguments SUPPORTING the claim (reasons it is TRUE)' : 'arguments ATTACKING the claim (reasons it is FALSE)';
  return [
    `TASK: write ${goal}, as the ${role}.`,
    caseHeader(c),
    'Write between 2 and 5 arguments — as many as the evidence and the complexity of the case justify. Each argument must be specific to the facts of this case, apply the legal test precisely, and cite the ids of the evidence passages it relies on (an empty list if none applies). Do not invent passage ids.',
    'Reply with JSON only: {"arguments": [{"text": "<one argument>", "citedPassageIds": ["<id>", ...]}]}',
  ].join('\n\n');
}

// --- intrinsic strength (Table 2) ---

export const SCORE_SYSTEM = 'You are a strict evaluator of legal arguments.';

export const RUBRIC = [
  '0.1–0.2: incorrect legal analysis or misidentification of key elements',
  '0.3–0.4: partially correct but missing critical components, or overly generic',
  '0.5–0.6: sound analysis with minor gaps or insufficient case-specific application',
  '0.7–0.8: strong analysis with specific facts and correct legal reasoning',
  '0.9–1.0: exceptional precision with authoritative citations and flawless logic (rare)',
].join('\n');

export interface ScoredItem {
  id: string;
  side: 'support' | 'attack';
  text: string;
  citedPassageIds: string[];
}

export function scorePrompt(c: CaseInput, items: ScoredItem[]): string {
  return [
    "TASK: score each argument's intrinsic strength on the rubric.",
    caseHeader(c),
    `SCORING RUBRIC (be strict; penalise generic statements, reward case-specific legal precision):\n${RUBRIC}`,
    `ARGUMENTS:\n${items
      .map(
        (i) =>
          `(${i.id}) [${i.side === 'support' ? 'supports' : 'attacks'} the claim] ${i.text}${i.citedPassageIds.length ? ` (cites ${i.citedPassageIds.map((id) => passageHandles().handle(id)).join(', ')})` : ''}`,
      )
      .join('\n')}`,
    'Reply with JSON only, one entry per argument id, the note before the score: {"scores": {"<argument id>": {"note": "<one sentence>", "score": <0.1..1.0>}, ...}}',
  ].join('\n\n');
}

// --- relation identification (§3.2.4) ---

export const RELATIONS_SYSTEM = 'You are an expert in legal argumentation and natural language inference.';

export interface RelationPair {
  pair: string;
  a: { side: 'support' | 'attack'; text: string };
  b: { side: 'support' | 'attack'; text: string };
}

export function relationsPrompt(context: string, batch: RelationPair[]): string {
  return [
    'TASK: classify the relation between each pair of legal arguments.',
    `CONTEXT: ${context}`,
    batch.map((p) => `PAIR ${p.pair}\n  A (${p.a.side}s the claim): ${p.a.text}\n  B (${p.b.side}s the claim): ${p.b.text}`).join('\n'),
    'For each pair: "attack" if A and B contradict or undermine each other; "support" if one reinforces or provides evidence for the other; "neutral" if they address different aspects or have no logical dependency. Judge the content, not merely the sides: arguments on opposite sides can be neutral. Give a confidence in [0, 1].',
    'Reply with JSON only, one entry per pair id: {"relations": {"<pair id>": {"relation": "attack|support|neutral", "confidence": <0..1>}, ...}}',
  ].join('\n\n');
}

// --- clash resolution (§3.2.5) ---

export const CLASH_SYSTEM = 'You are a legal reasoning expert adjudicating an argument clash.';

const stance = (a: { side: 'support' | 'attack' }) => (a.side === 'support' ? 'supports the claim' : 'attacks the claim');

/** `a` and `b`: the clash's two arguments in the order shown (seeded; llm/resolve-clashes.ts). */
export function clashPrompt(c: CaseInput, a: { side: 'support' | 'attack'; text: string }, b: { side: 'support' | 'attack'; text: string }): string {
  return [
    'TASK: resolve a clash between two conflicting arguments — which is stronger?',
    caseHeader(c),
    `ARGUMENT A (${stance(a)}): ${a.text}`,
    `ARGUMENT B (${stance(b)}): ${b.text}`,
    'Decide which argument is more legally sound for THIS case: which is more directly relevant to the facts, applies the correct legal standard, and reasons without error.',
    'Reply with JSON only, the reason first: {"reason": "<one or two sentences>", "winner": "A" | "B"}',
  ].join('\n\n');
}

// --- uncertainty-aware final judge (§3.4) ---

export const JUDGE_SYSTEM = 'You are a senior judge giving a final, binding decision.';

/** The graph as the judge sees it: live arguments with base/final strengths, relations, σ(claim). */
export function describeGraphForJudge(g: AcalGraph): string {
  const r = g.result!;
  const lines = g.arguments
    .filter((a) => a.status !== 'rejected')
    .map(
      (a) =>
        `(${a.id}) [${a.side === 'support' ? 'SUPPORTS' : 'ATTACKS'}; ${a.agent}; base ${r.effectiveBase[a.id].toFixed(2)}, final ${r.strengths[a.id].toFixed(2)}] ${a.text}` +
        (a.citedPassageIds.length ? ` (cites ${a.citedPassageIds.map((id) => passageHandles().handle(id)).join(', ')})` : ''),
    );
  const rels = g.relations.filter((x) => x.from < x.to).map((x) => `${x.from} ${x.kind}s ${x.to}`);
  return `${lines.join('\n')}\nRELATIONS: ${rels.length ? rels.join('; ') : 'none'}\nCLAIM STRENGTH σ = ${r.claimStrength.toFixed(3)} (threshold ${g.settings.threshold})`;
}

export function judgePrompt(c: CaseInput, graph: AcalGraph): string {
  return [
    'TASK: final judgment on a borderline case. The argumentation graph ended in a near-tie; you must decide.',
    caseHeader(c),
    `ARGUMENT GRAPH:\n${describeGraphForJudge(graph)}`,
    'Perform an independent legal analysis: re-evaluate the evidence and the legal standard, resolve the key conflicts, and decide whether the claim holds. You must answer Yes or No.',
    'Reply with JSON only, the reasoning first: {"reasoning": "<2-3 sentences naming the decisive rule or fact>", "decision": "Yes" | "No"}',
  ].join('\n\n');
}
