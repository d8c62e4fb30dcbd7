/**
 * Scripted-server replies for MAD tests, chosen by inspecting each request (robust to call order and
 * concurrency): debaters, the judge, the cross-examiner, cross-examination answers and the
 * single-agent baselines each recognised by their system prompt. Every brief carries a marker
 * `ARG-<letter>-r<round>` so tests can assert from the recorded requests who saw whom.
 */
import type { RecordedRequest, ScriptReply } from '../../../tests/support/scripted-openai-server.js';

export type Role = 'debater' | 'judge' | 'cross-examiner' | 'cross-answer' | 'analyst' | 'other';

interface Msg {
  role: string;
  content: string | null;
  tool_calls?: unknown[];
}

export const msgs = (req: RecordedRequest): Msg[] => req.body.messages as Msg[];
const system = (req: RecordedRequest) => String(msgs(req)[0]?.content ?? '');
const human = (req: RecordedRequest) => String(msgs(req).find((m) => m.role === 'user')?.content ?? '');

export function roleOf(req: RecordedRequest): Role {
  const s = system(req);
  if (/^You are the Judge/.test(s)) return 'judge';
  if (/^You are the Cross-Examiner/.test(s)) return 'cross-examiner';
  if (/^You are Debater/.test(s)) return /The Cross-Examiner asks you/.test(human(req)) ? 'cross-answer' : 'debater';
  if (/^You are a single legal analyst/.test(s)) return 'analyst';
  return 'other';
}

export const debaterLetter = (req: RecordedRequest) => /^You are Debater ([A-J])/.exec(system(req))?.[1] ?? '?';
export const roundOf = (req: RecordedRequest) => Number(/Round (\d+) \(/.exec(human(req))?.[1] ?? 0);
export const humanText = human;

/**
 * The handle under which the prompt shows the passage whose text starts with `textStart` (models see
 * passages as "[P3] text", never their ids), or undefined when it is not shown.
 */
export function shownHandle(req: RecordedRequest, textStart: string): string | undefined {
  const all = msgs(req)
    .map((m) => String(m.content ?? ''))
    .join('\n');
  for (const m of all.matchAll(/\[(P\d+)\] ([^\n]*)/g)) if (m[2].startsWith(textStart)) return m[1];
  for (const m of all.matchAll(/"id":"(P\d+)","text":"([^"]*)/g)) if (m[2].startsWith(textStart)) return m[1];
  return undefined;
}

/** A debater's brief: one claim about relevance citing FRE 402 (supportive; by the handle the prompt shows it under) and one citing `badId`. */
export function briefReply(letter: string, round: number, opts: { badId?: string; req?: RecordedRequest } = {}): ScriptReply {
  const rule402 = (opts.req && shownHandle(opts.req, 'Rule 402.')) ?? 'P99';
  const claims = [{ text: 'Relevant evidence is admissible unless a rule provides otherwise', cites: [rule402] }];
  if (opts.badId) claims.push({ text: 'Hearsay within hearsay is excluded', cites: [opts.badId] });
  return {
    content: JSON.stringify({
      ...(round > 1 ? { rebuttal: `The opposing point fails (REB-${letter}-r${round})` } : {}),
      argument: `ARG-${letter}-r${round}: option ${letter} is right`,
      claims,
    }),
  };
}

export const judgeReply = (verdict: string, unsupported: string[] = []): ScriptReply => ({
  content: JSON.stringify({
    rationale: ['FRE 401 relevance governs', 'Vic testifies to a material fact', 'The voucher rule is abandoned'],
    verdict,
    checklist: { doctrine_named: true, on_point_authority: true, accurate_use: true, logical_application: true, opponent_addressed: false },
    unsupported_citations: unsupported,
  }),
});
