/**
 * How a case triple is shown to the models: the paper's notation, "F4 Agreed-not-to-disclose (P)",
 * one factor per line, precedents with their outcome. Case names (casebase source) are never shown,
 * so a model argues from the factors and not from what it may remember of the real case.
 */
import { formatFactor, type TradeSecretModel } from '../../corpora/trade-secret.js';
import type { CaseTriple } from './scenarios.js';
import { RECORDED_READINGS } from '../../core/recorded-readings.js';

export type PlyKey = 'plaintiff' | 'defendant' | 'rebuttal';
export const PLIES: readonly PlyKey[] = ['plaintiff', 'defendant', 'rebuttal'];

/** The JSON keys of the 3-ply output, as in the paper. */
export const PLY_LABEL: Record<PlyKey, string> = {
  plaintiff: "Plaintiff's Argument",
  defendant: "Defendant's Counterargument",
  rebuttal: "Plaintiff's Rebuttal",
};

export const outcomeWord = (o: 'P' | 'D') => (o === 'P' ? 'Plaintiff' : 'Defendant');

export function factorLines(ids: readonly string[], model: TradeSecretModel): string {
  return ids
    .map((id) => {
      const f = model.byId.get(id);
      return f ? formatFactor(f) : id;
    })
    .join('\n');
}

export function formatTriple(t: Pick<CaseTriple, 'c1' | 'c2' | 'c3'>, model: TradeSecretModel): string {
  return [
    'c1 (current case):',
    factorLines(t.c1.factors, model),
    '',
    `c2 (trade secret case cited for the Plaintiff): outcome ${outcomeWord(t.c2.outcome)}`,
    factorLines(t.c2.factors, model),
    '',
    `c3 (trade secret case cited for the Defendant as a counterexample): outcome ${outcomeWord(t.c3.outcome)}`,
    factorLines(t.c3.factors, model),
  ].join('\n');
}

/** Earlier plies, labelled, for the context of the next one. */
export function formatPlies(plies: Partial<Record<PlyKey, string>>): string {
  return PLIES.filter((p) => plies[p] !== undefined)
    .map((p) => `${PLY_LABEL[p]}:\n${plies[p]}`)
    .join('\n\n');
}

/** The plies that carry an argument (a TERMINATE ply carries none): what the evaluator scores. */
export function arguedPlies(plies: Partial<Record<PlyKey, string>>): Partial<Record<PlyKey, string>> {
  return Object.fromEntries(PLIES.filter((p) => plies[p] !== undefined && !isTerminate(plies[p])).map((p) => [p, plies[p]]));
}

/** A ply's output when the system abstained on it: the paper's "TERMINATE" with the reason. */
export const terminateText = (reason: string | undefined) => (isTerminate(reason) ? reason!.trim() : `TERMINATE: ${reason ?? 'no grounded argument'}`);

/**
 * The paper's termination token, "TERMINATE" (its prompts: "your primary output must be 'TERMINATE'"; its output:
 * "TERMINATE: Generation stopped. …"), in capitals, as a line's first word with nothing after it or a reason after
 * punctuation ("TERMINATE", "**TERMINATE**", "TERMINATE.", "TERMINATE: <reason>", "TERMINATE — <reason>"). Before
 * 2026-12-02 "terminate" in any case followed by anything was taken: a ply beginning "Terminate the contract …" was
 * read as an abstention.
 */
const TERMINATE_LINE = /^\s*["'*_`]*TERMINATE["'*_`]*(?:\s*$|\s*[:.;,!\-–—(])/;

/** How a 3-ply run reads an abstention, recorded in its config.json (`terminateReading`): a run dir an older lexcase wrote resumes with a warning. */
export const TERMINATE_READING = RECORDED_READINGS.terminateReading.current;

/** True when a reply (or a ply) is an abstention: its first line is the TERMINATE token (TERMINATE_LINE), or its last line is. */
export function isTerminate(text: string | undefined): boolean {
  if (!text) return false;
  const lines = text
    .trim()
    .split(/\r?\n/)
    .filter((l) => l.trim());
  return lines.length > 0 && (TERMINATE_LINE.test(lines[0]) || TERMINATE_LINE.test(lines[lines.length - 1]));
}
