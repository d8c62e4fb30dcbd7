/**
 * A scripted "legal LLM" for the ACAL arena, for tests against the scripted OpenAI-compatible
 * server (tests/support/scripted-openai-server.ts). It answers by inspecting each request — which
 * stage the prompt is (TASK: ... line), the case text, the argument ids and pairs — so tests do
 * not depend on call order or concurrency.
 *
 * Its "legal judgement" is a transparent cue: a case whose text reports something a person
 * said/told/wrote/stated is treated as hearsay (support side strong), anything else as not
 * (attack side strong); a case containing "NEAR-TIE" gets equal scores on both sides, so the
 * claim lands in the uncertainty band and the judge is consulted.
 */
import type { RecordedRequest, ScriptReply } from '../../../tests/support/scripted-openai-server.js';

const SAID = /\b(said|told|tells|says|stated|wrote|declared|announced|exclaimed|yelled|asked)\b/i;

export type Cue = 'support' | 'attack' | 'tie';

export function cueOf(caseText: string): Cue {
  if (/NEAR-TIE/.test(caseText)) return 'tie';
  return SAID.test(caseText) ? 'support' : 'attack';
}

const json = (v: unknown): ScriptReply => ({ content: '```json\n' + JSON.stringify(v) + '\n```' });

function userText(req: RecordedRequest): string {
  const msgs = (req.body?.messages ?? []) as { role: string; content: unknown }[];
  const users = msgs.filter((m) => m.role === 'user');
  const c = users[0]?.content;
  return typeof c === 'string' ? c : Array.isArray(c) ? c.map((p: { text?: string }) => p.text ?? '').join('') : '';
}

export interface ArenaScriptOptions {
  /** Reply with unparseable text to the first call of this stage (to exercise the retry). */
  garbleFirst?: 'score';
}

export function scriptedArena(opts: ArenaScriptOptions = {}) {
  let garbled = false;
  return (req: RecordedRequest): ScriptReply => {
    const text = userText(req);
    const caseText = [...('\n' + text).matchAll(/\n(?:CASE|Case): (.*)/g)].pop()?.[1] ?? ''; // the last one: few-shot examples come first
    const cue = cueOf(caseText);
    const evidenceIds = [...text.matchAll(/^\[([^\]]+)\]/gm)].map((m) => m[1]);

    if (text.startsWith('TASK: select the support team'))
      return json({
        selected: [
          { role: 'Law Clerk / Judicial Clerk', reason: 'rule analysis' },
          { role: 'Prosecutor', reason: 'evidence' },
        ],
      });
    if (text.startsWith('TASK: select the attack team'))
      return json({
        selected: [
          { role: 'Public Defender', reason: 'objections' },
          { role: 'Legal Analyst', reason: 'classification' },
        ],
      });

    if (text.startsWith('TASK: write arguments')) {
      const side = /SUPPORTING/.test(text) ? 'support' : 'attack';
      const role = /as the (.*)\.\n/.exec(text)?.[1] ?? 'agent';
      return json({
        arguments: [
          {
            text: `${role}: on these facts the ${side === 'support' ? 'statement is offered for its truth' : 'evidence is not an assertion offered for its truth'}.`,
            citedPassageIds: evidenceIds.slice(0, 1),
          },
          {
            text: `${role}: applying FRE 801(c) element by element, the claim ${side === 'support' ? 'holds' : 'fails'}.`,
            citedPassageIds: [...evidenceIds.slice(1, 2), 'not-a-retrieved-id'],
          },
        ],
      });
    }

    if (text.startsWith('TASK: score each argument')) {
      if (opts.garbleFirst === 'score' && !garbled) {
        garbled = true;
        return { content: 'I would rate these arguments as fairly strong overall.' };
      }
      const items = [...text.matchAll(/^\((\w+)\) \[(supports|attacks) the claim\]/gm)].map((m) => ({ id: m[1], side: m[2] }));
      const strong = cue === 'tie' ? null : cue === 'support' ? 'supports' : 'attacks';
      return json({
        scores: Object.fromEntries(
          items.map((i, k) => [i.id, { score: strong === null ? 0.6 : i.side === strong ? 0.8 - 0.05 * (k % 2) : 0.3 + 0.05 * (k % 2), note: 'scripted' }]),
        ),
      });
    }

    if (text.startsWith('TASK: classify the relation')) {
      const pairs = [...text.matchAll(/^PAIR (\S+)\n {2}A \((support|attack)s the claim\).*\n {2}B \((support|attack)s the claim\)/gm)];
      return json({
        relations: Object.fromEntries(
          pairs.map((m) => {
            const ids = m[1].split('~').sort().join('~');
            const same = m[2] === m[3];
            // one low-confidence judgement per graph, to exercise the 0.6 demotion (whichever order the pair is shown in)
            const low = ids === 'a2~s2';
            return [m[1], { relation: same ? 'support' : 'attack', confidence: low ? 0.5 : same ? 0.9 : 0.8 }];
          }),
        ),
      });
    }

    if (text.startsWith('TASK: resolve a clash')) {
      // the sides are shown in a seeded order: the winner is the argument on the cue's side, A or B
      const aSide = /^ARGUMENT A \((support|attack)s the claim\)/m.exec(text)?.[1];
      const want = cue === 'attack' ? 'attack' : 'support';
      return json({ reason: 'scripted clash', winner: aSide === want ? 'A' : 'B' });
    }
    if (text.startsWith('TASK: final judgment')) return json({ reasoning: 'scripted judge', decision: cue === 'attack' ? 'No' : 'Yes' });

    // baselines (SP, CoT, RAG)
    if (text.startsWith('TASK: answer the legal classification question')) {
      const answer = cue === 'attack' ? 'No' : 'Yes';
      return json(/step by step/.test(text) ? { reasoning: 'scripted steps', answer } : { answer });
    }
    return { status: 500, error: `scripted arena: unrecognised prompt: ${text.slice(0, 80)}` };
  };
}
