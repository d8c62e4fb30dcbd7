/**
 * Test support: one scripted-server script that answers every lexcase system a recipe may run
 * (ACAL arena and baselines, MAD debate and baselines, 3-ply agents, EMAR parties and judge, CASE
 * advocates and jurors, the CASE single-path baselines), chosen by inspecting each request — so a
 * whole recipe grid runs against one endpoint, as it would against a real one.
 */
import { scriptedArena } from '../../agents/acal/test-support/scripted-arena.js';
import { briefReply, debaterLetter, judgeReply, roleOf, roundOf } from '../../agents/mad/test-support/script.js';
import { jsonReply, rulesScript, threeplyRole } from '../../agents/threeply/test-support/scripted-threeply.js';
import type { RecordedRequest, ScriptReply } from './scripted-openai-server.js';

const text = (c: unknown): string => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (typeof p === 'string' ? p : (p?.text ?? ''))).join('') : '');
const userText = (r: RecordedRequest): string => text(r.body.messages[r.body.messages.length - 1]?.content);
const all = (r: RecordedRequest): string => JSON.stringify(r.body.messages);

export function scriptedAll(): (r: RecordedRequest) => ScriptReply {
  const arena = scriptedArena();
  const threeply = rulesScript();
  return (r) => {
    const s = text(r.body.messages[0]?.content);
    // ACAL (stage prompts start with "TASK: ")
    if (userText(r).startsWith('TASK: ')) return arena(r);
    // EMAR
    if (s.startsWith('You are a fact-finding clerk')) return jsonReply({ facts: ['a statement was made out of court'] });
    if (s.startsWith('You are the Proponent'))
      return jsonReply({ answer: 'A', claim: 'The statement is hearsay because it is offered for its truth.', argument: 'r', evidence: [] });
    if (s.startsWith('You are the Opponent'))
      return jsonReply({ answer: 'A', claim: 'The statement is hearsay because it is offered for its truth.', argument: 'agreed', evidence: [] });
    if (s.startsWith('You are a neutral Judge')) return jsonReply({ established_facts: ['x'], answer: 'A', rationale: 'r' });
    // MAD
    const mad = roleOf(r);
    if (mad === 'debater') return briefReply(debaterLetter(r), roundOf(r));
    if (mad === 'judge') return judgeReply('A');
    if (mad === 'cross-examiner') return jsonReply({ questions: ['A', 'B', 'C', 'D'].map((l) => ({ letter: l, question: `which rule makes ${l} right?` })) });
    if (mad === 'cross-answer') return jsonReply({ answer: 'FRE 402' });
    if (mad === 'analyst') return jsonReply({ reasoning: 'r', answer: 'A', claims: [{ text: 'Relevant evidence is admissible', cites: ['fre402'] }] });
    // 3-ply
    if (/trade secret|Factor Analyst|Argument Polisher|Factor Distiller|Argument Developer/.test(s)) {
      const role = threeplyRole(r);
      if (role === 'plaintiff' || role === 'defendant') return { content: `${role}: c1 shares nothing on point.` };
      if (role === 'single' || role === 'single-enhanced') return { content: 'TERMINATE: no grounded argument' };
      return threeply(r);
    }
    // CASE jurors and advocates
    if (/juror on a panel/.test(all(r))) return jsonReply({ reasoning: 'step by step', vote: 'A' });
    if (Array.isArray(r.body.tools) && r.body.tools.length) {
      const toolMsgs = (r.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
      if (toolMsgs.length === 0) return { toolCalls: [{ name: r.body.tools[0].function.name, args: { query: 'negligence duty of care' } }] };
      const ids = toolMsgs.flatMap((m) => {
        try {
          return (JSON.parse(m.content).results ?? []).map((x: { id: string }) => x.id);
        } catch {
          return [];
        }
      });
      return jsonReply({ evidence: ids.slice(0, 2).map((id: string) => ({ id, justification: 'relevant rule' })) });
    }
    // CASE single-path baselines (MCQ answer)
    return jsonReply({ reasoning: 'r', answer: 'B' });
  };
}
