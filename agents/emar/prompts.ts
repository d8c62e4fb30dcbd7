/**
 * EMAR prompts. The paper gives the roles, the recursion and the algorithm but prints no prompt, so
 * these are lexcase's, written from its descriptions: fact extraction from the evidence; the
 * Proponent (bears the burden of proof, builds a chain from evidence to a proposed fact/answer);
 * the Opponent (attacks fallacies, contradictions and unmet standards, and proposes its own claim);
 * the Proponent's response (revises or holds, with new support); the Judge (states the established
 * facts and decides). The paper's Chinese civil-case benchmark is replaced by multiple-choice legal
 * questions, so every claim names one option.
 */
import { LETTERS } from '../../corpora/types.js';
import type { Claim, EmarCase } from './types.js';

export function caseText(c: EmarCase): string {
  const opts = c.choices.map((o, i) => `(${LETTERS[i]}) ${o}`).join('\n');
  return `${c.evidence ? `Evidence / facts:\n${c.evidence}\n\n` : ''}Question:\n${c.question}\n\nOptions:\n${opts}`;
}

const CLAIM_JSON = `Reply with only this JSON object:
{"evidence": ["<fact or rule relied on>", "..."], "argument": "<your reasoning>", "claim": "<your conclusion in one or two sentences>", "answer": "<one option letter>"}`;

export const FACT_EXTRACTION_SYSTEM = `You are a fact-finding clerk. From the evidence and question below, list the legally relevant facts as short, separate statements. Keep only what the text states or necessarily implies; mark uncertain or disputed points as such; add nothing from outside the text. Reply with only this JSON object: {"facts": ["...", "..."]}`;

export const PROPONENT_SYSTEM = `You are the Proponent in an adversarial legal argument. You bear the burden of proof: build a clear logical chain from the facts and the applicable legal rules to the answer you propose, citing the specific facts that support each step. When the Opponent has critiqued your position, answer the critique: either revise your position if the critique is right, or hold it and explain, with further support, why the critique fails. ${CLAIM_JSON}`;

export const OPPONENT_SYSTEM = `You are the Opponent in an adversarial legal argument. Your task is to test the Proponent's argument: find logical fallacies, contradictions with the facts, misapplied or missing legal rules, and legal standards that are not met. Then state the answer you think the facts support (it may be the Proponent's, if the argument survives your critique). ${CLAIM_JSON}`;

export const JUDGE_SYSTEM = `You are a neutral Judge. The Proponent and the Opponent have argued the case below until their positions converged or the argument ended. First state the facts you consider established on the evidence and the argument, then give your reasoning, then decide the question by choosing exactly one option. Reply with only this JSON object: {"established_facts": ["...", "..."], "rationale": "<short reasoning>", "answer": "<one option letter>"}`;

const claimBlock = (who: string, c: Claim) =>
  `${who} (answer ${c.answer}): ${c.claim}\nReasoning: ${c.argument}${c.evidence.length ? `\nRelied on: ${c.evidence.join('; ')}` : ''}`;

export const factsBlock = (facts: string[]) => (facts.length ? `Extracted facts:\n${facts.map((f) => `- ${f}`).join('\n')}` : 'Extracted facts: (none)');

/**
 * The Proponent's request: its first argument (Argumentation), or its Response to a critique, which
 * shows its own argument so far beside the Opponent's critique — the paper's Proponent "revises or
 * adheres to the original argument based on the counter-argument" (Table 1), which it cannot do
 * unseen (before 2026-12-01 the Response showed the critique alone).
 */
export function proponentRequest(c: EmarCase, facts: string[], response?: ProponentResponse): string {
  const base = `${caseText(c)}\n\n${factsBlock(facts)}`;
  return response
    ? `${base}\n\nYour argument so far:\n${claimBlock('Proponent', response.own)}\n\nThe Opponent's critique of your argument:\n${claimBlock('Opponent', response.critique)}\n\nRespond: revise or defend your position.`
    : `${base}\n\nPresent your argument.`;
}

/** What the Proponent answers in a Response: its own argument so far and the Opponent's critique of it. */
export interface ProponentResponse {
  own: Claim;
  critique: Claim;
}

export function opponentRequest(c: EmarCase, facts: string[], proponent: Claim): string {
  return `${caseText(c)}\n\n${factsBlock(facts)}\n\nThe Proponent's argument:\n${claimBlock('Proponent', proponent)}\n\nCritique it.`;
}

/** `first`: which party's final position is shown first (seeded per item; emar.ts). */
export function judgeRequest(
  c: EmarCase,
  facts: string[],
  proponent: Claim,
  opponent: Claim | undefined,
  first: 'proponent' | 'opponent' = 'proponent',
): string {
  const blocks = [
    `Final position of the Proponent:\n${claimBlock('Proponent', proponent)}`,
    ...(opponent ? [`Final position of the Opponent:\n${claimBlock('Opponent', opponent)}`] : []),
  ];
  if (first === 'opponent') blocks.reverse();
  return `${caseText(c)}\n\n${factsBlock(facts)}\n\n${blocks.join('\n\n')}`;
}

/** The text whose embedding stands for a party's claim in the convergence test. */
export const claimForEmbedding = (c: Claim, choices: string[]) => `Answer (${c.answer}) ${choices[LETTERS.indexOf(c.answer)] ?? ''}. ${c.claim}`;
