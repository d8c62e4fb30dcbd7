/**
 * Test support: a scripted-server script for the 3-ply agents that answers by inspecting each
 * request — which agent (system prompt), which ply, and the factor lists in the prompt — so tests
 * do not depend on call order. `rulesScript()` plays a well-behaved team: developers cite exactly
 * the shared factors, the Factor Analyst applies its abstention rule to the real lists, the Polisher
 * accepts, the single agents (SA, SA-EP) argue the same way (SA-EP abstains as its prompt says), and
 * the Distiller reads the "cN has F.." statements back.
 */
import type { RecordedRequest, ScriptReply } from '../../../tests/support/scripted-openai-server.js';

export const sysText = (r: RecordedRequest): string => r.body.messages[0].content;
export const userText = (r: RecordedRequest): string => r.body.messages[r.body.messages.length - 1].content;

export type ScriptRole = 'analyst' | 'polisher' | 'distiller' | 'developer' | 'revise' | 'plaintiff' | 'defendant' | 'single' | 'single-enhanced';

export function threeplyRole(r: RecordedRequest): ScriptRole {
  const s = sysText(r);
  if (s.startsWith('You are a Factor Analyst')) return 'analyst';
  if (s.startsWith('You are an Argument Polisher')) return 'polisher';
  if (s.startsWith('You are a Factor Distiller')) return 'distiller';
  if (s.startsWith('You are the Argument Developer')) return /Revise the/.test(userText(r)) ? 'revise' : 'developer';
  if (s.includes('counsel for the Plaintiff')) return 'plaintiff';
  if (s.includes('counsel for the Defendant')) return 'defendant';
  return s.includes('Work step by step') ? 'single-enhanced' : 'single';
}

export type PlyLabel = "Plaintiff's Argument" | "Defendant's Counterargument" | "Plaintiff's Rebuttal";

export function plyOf(r: RecordedRequest): PlyLabel | undefined {
  const re = /(?:Segment to analyse \(|Segment \(|Write the |Revise the )(Plaintiff's Argument|Defendant's Counterargument|Plaintiff's Rebuttal)/g;
  return [...userText(r).matchAll(re)].at(-1)?.[1] as PlyLabel | undefined;
}

export interface PromptCase {
  ids: string[];
  outcome?: 'Plaintiff' | 'Defendant';
}

/** The factor lists and outcomes shown in a prompt (formatTriple's layout). */
export function parseTripleFromPrompt(text: string): { c1: PromptCase; c2: PromptCase; c3: PromptCase } {
  const block = (label: string): PromptCase => {
    const rest = text.slice(text.indexOf(label)).split('\n');
    const ids: string[] = [];
    for (const line of rest.slice(1)) {
      const m = /^(F\d+) /.exec(line);
      if (!m) break;
      ids.push(m[1]);
    }
    return { ids, outcome: /outcome (Plaintiff|Defendant)/.exec(rest[0])?.[1] as PromptCase['outcome'] };
  };
  return { c1: block('c1 (current case)'), c2: block('c2 ('), c3: block('c3 (') };
}

/** The Factor Analyst's abstention rule applied to the real lists in the request. */
export function analystVerdict(r: RecordedRequest): 'REQUIRES_ABSTENTION' | 'VALID_ARGUMENT' {
  const t = parseTripleFromPrompt(userText(r));
  const defendant = plyOf(r) === "Defendant's Counterargument";
  const primary = defendant ? t.c3 : t.c2;
  const shared = primary.ids.filter((f) => t.c1.ids.includes(f));
  return shared.length === 0 || primary.outcome !== (defendant ? 'Defendant' : 'Plaintiff') ? 'REQUIRES_ABSTENTION' : 'VALID_ARGUMENT';
}

export const jsonReply = (o: unknown): ScriptReply => ({ content: JSON.stringify(o) });

type Triple = ReturnType<typeof parseTripleFromPrompt>;

/** The factors c1 shares with `other`, stated as "c1 has …; cN has …". */
function sharedStatement(t: Triple, other: 'c2' | 'c3'): string {
  const shared = t[other].ids.filter((f) => t.c1.ids.includes(f));
  return shared.length ? `c1 has ${shared.join(', ')}; ${other} has ${shared.join(', ')}.` : `c1 shares nothing with ${other}.`;
}

/** A developer's ply that states the shared factors as "c1 has …; cN has …". */
function honestPly(r: RecordedRequest): string {
  return sharedStatement(parseTripleFromPrompt(userText(r)), plyOf(r) === "Defendant's Counterargument" ? 'c3' : 'c2');
}

/**
 * A single agent that follows its prompt: the three plies state the shared factors. SA-EP writes
 * its steps in "reasoning" first and, when a precedent's outcome or a missing overlap rules the
 * argument out, "TERMINATE: <reason>" as the Plaintiff's Argument with the other plies empty.
 */
function singleAgentReply(r: RecordedRequest, enhanced: boolean): ScriptReply {
  const t = parseTripleFromPrompt(userText(r));
  const plies = {
    "Plaintiff's Argument": sharedStatement(t, 'c2'),
    "Defendant's Counterargument": sharedStatement(t, 'c3'),
    "Plaintiff's Rebuttal": 'c3 is distinguishable.',
  };
  if (!enhanced) return jsonReply(plies);
  const shares = (c: 'c2' | 'c3') => t[c].ids.some((f) => t.c1.ids.includes(f));
  const grounded = shares('c2') && shares('c3') && t.c2.outcome === 'Plaintiff' && t.c3.outcome === 'Defendant';
  const reasoning = `Step 1: c1's factors are ${t.c1.ids.join(', ')}. Step 2: c2's outcome is ${t.c2.outcome}, c3's is ${t.c3.outcome}: ${grounded ? 'a grounded argument is possible' : 'no grounded argument'}.`;
  if (grounded) return jsonReply({ reasoning, ...plies });
  return jsonReply({
    reasoning,
    "Plaintiff's Argument": 'TERMINATE: a precedent cannot be cited by its side.',
    "Defendant's Counterargument": '',
    "Plaintiff's Rebuttal": '',
  });
}

/** Reads "cN has F1, F2" statements out of the argument JSON. */
function distill(r: RecordedRequest) {
  const out: Record<'c1' | 'c2' | 'c3', Set<string>> = { c1: new Set(), c2: new Set(), c3: new Set() };
  for (const m of userText(r).matchAll(/(c[123]) has ((?:F\d+(?:, )?)+)/g)) for (const f of m[2].split(', ')) out[m[1] as 'c1'].add(f);
  return { c1: [...out.c1], c2: [...out.c2], c3: [...out.c3] };
}

export function rulesScript(): (r: RecordedRequest) => ScriptReply {
  return (r) => {
    switch (threeplyRole(r)) {
      case 'developer':
      case 'revise':
        return { content: honestPly(r) };
      case 'analyst': {
        const v = analystVerdict(r);
        return jsonReply({ analysis_outcome: v, summary: v === 'VALID_ARGUMENT' ? 'valid' : 'no grounded argument for this side' });
      }
      case 'polisher':
        return jsonReply({ revision_needed: false, feedback_summary: 'fine' });
      case 'distiller':
        return jsonReply(distill(r));
      case 'single':
      case 'single-enhanced':
        return singleAgentReply(r, threeplyRole(r) === 'single-enhanced');
      default:
        return { status: 500, error: `rulesScript: no reply for ${threeplyRole(r)}` };
    }
  };
}
