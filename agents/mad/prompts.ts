/**
 * Prompts of the debate (paper 002 §3.1–3.2): debaters defending one option each (opening, then
 * rebuttal/closing rounds), the optional cross-examiner, the judge with its 3-bullet rationale and
 * 5-item checklist, and the single-agent baselines. Every reply is a JSON object (zod-parsed).
 */
import type { Question } from '../../corpora/types.js';
import { factsOf, optionsBlock, truncate } from '../common/question-text.js';
import { passageHandles } from '../common/passage-handles.js';
import type { ShownPassage } from './cited-evidence.js';
import type { Brief, CrossExamination, PoolPassage } from './types.js';

const CLAIMS_FORMAT = '"claims": [{"text": "<one legal claim>", "cites": ["<passage id>", ...]}, ...]';

/** One line per passage: its handle (the item's map: models see P1.., never real ids) and its text, truncated. */
function passageLines(passages: ShownPassage[], chars: number): string[] {
  const h = passageHandles();
  return passages.map((p) => `[${h.handle(p.id)}] ${shownText(p.text, chars)}`);
}

/**
 * A passage as every MAD prompt and snippet reply shows it: whitespace runs made one space, cut to
 * `chars` characters. The lexical support check reads this same string (citation-check.ts), never
 * the stored text past the cut the model did not see.
 */
export function shownText(text: string, chars: number): string {
  return truncate(text.replace(/\s+/g, ' '), chars);
}

export function evidenceBlock(pool: ShownPassage[], chars: number): string {
  if (pool.length === 0) return 'Authorities: (the retriever returned none)';
  return ['Authorities (shared evidence pool; cite them by id in square brackets):', ...passageLines(pool, chars)].join('\n');
}

/** The heading of the requested snippets the briefs cite, shown after the pool (the judge's, a rebutting debater's). */
const FURTHER_AUTHORITIES = 'Further authorities the briefs cite (snippets a debater requested from the retriever):';

/** The passages the briefs cite beyond what the reader was shown (requested snippets); nothing when there are none. */
function citedBlock(cited: ShownPassage[], chars: number, heading: string): string[] {
  return cited.length ? ['', heading, ...passageLines(cited, chars)] : [];
}

export function questionBlock(q: Pick<Question, 'prompt' | 'question' | 'choices'>): string {
  return ['Question:', factsOf(q), '', 'Options:', optionsBlock(q)].join('\n');
}

export function debaterSystem(letter: string): string {
  return [
    `You are Debater ${letter} in a structured legal debate about a multiple-choice bar exam question.`,
    `You defend option ${letter} as the legally best answer, whatever your private view.`,
    'You must cite the authority for every legal claim by its passage id; cite only ids you were shown, and never invent authorities or quote text that is not in them. You may rely on no authority for a claim only if none applies — then cite nothing.',
  ].join(' ');
}

export function openingPrompt(q: Question, letter: string, pool: PoolPassage[], chars: number): string {
  return [
    questionBlock(q),
    '',
    evidenceBlock(pool, chars),
    '',
    `Round 1 (opening). Argue that option ${letter} is correct: name the governing doctrine, apply it to the facts, and cite the authorities you rely on.`,
    `Reply with only a JSON object: {"argument": "<your opening brief>", ${CLAIMS_FORMAT}}`,
  ].join('\n');
}

/** How a brief shown to a model marks a citation that named no passage handle shown (Claim `unresolved`). */
export const NO_HANDLE = 'no passage shown';

export function briefText(b: Pick<Brief, 'letter' | 'argument' | 'rebuttal' | 'claims' | 'error'>): string {
  if (b.error) return `Debater ${b.letter} (option ${b.letter}): (no brief this round)`;
  const lines = [`Debater ${b.letter} (option ${b.letter}):`];
  if (b.rebuttal) lines.push(`  Rebuttal: ${b.rebuttal}`);
  lines.push(`  Argument: ${b.argument}`);
  const h = passageHandles();
  for (const c of b.claims) {
    // a citation that named no handle shown is never shown back as one (a handle of its own would make it citable)
    const refs = [...c.cites.map((id) => h.handle(id)), ...(c.unresolved ?? []).map(() => NO_HANDLE)];
    lines.push(`  - ${c.text}${refs.length ? ` [${refs.join('] [')}]` : ''}`);
  }
  return lines.join('\n');
}

/**
 * `cited`: the passages outside `pool` (the debater's own evidence) that the briefs shown cite — its
 * opponents' requested snippets — with their text, after the pool as the judge is shown them.
 */
export function rebuttalPrompt(
  q: Question,
  letter: string,
  round: number,
  rounds: number,
  pool: PoolPassage[],
  own: Brief,
  seen: Brief[],
  chars: number,
  canRequest: boolean,
  cited: ShownPassage[] = [],
): string {
  const closing = round === rounds;
  return [
    questionBlock(q),
    '',
    evidenceBlock(pool, chars),
    ...citedBlock(cited, chars, FURTHER_AUTHORITIES),
    '',
    'Your previous brief:',
    briefText(own),
    '',
    seen.length === 1 ? "The opposing debater's previous brief:" : "The opposing debaters' previous briefs:",
    ...seen.map(briefText),
    '',
    `Round ${round} (${closing ? 'closing' : 'rebuttal'}). (a) Rebut the opponent's strongest point; ${
      canRequest ? '(b) you may request ONE new snippet from the retriever by calling a search tool once before writing; ' : ''
    }(c) revise your application of the law to the facts in defence of option ${letter}, citing authorities by id.`,
    `Reply with only a JSON object: {"rebuttal": "<the point you rebut and why it fails>", "argument": "<your revised brief>", ${CLAIMS_FORMAT}}`,
  ].join('\n');
}

export const CROSS_EXAMINER_SYSTEM = 'You are the Cross-Examiner in a structured legal debate. You probe gaps and shared misconceptions before the judgment.';

/**
 * `to`: the debaters to question (those that filed a final brief), one question each; `cited`: the
 * text of every passage the briefs cite (so a question about a misapplied authority can rest on it).
 */
export function crossExamPrompt(
  q: Question,
  briefs: Brief[],
  to: string[] = briefs.filter((b) => !b.error).map((b) => b.letter),
  cited: ShownPassage[] = [],
  chars = 600,
): string {
  return [
    questionBlock(q),
    ...citedBlock(cited, chars, 'Authorities the briefs cite:'),
    '',
    'Final briefs:',
    ...briefs.map(briefText),
    '',
    `Ask each debater (${to.join(', ')}) exactly ONE targeted question that probes the weakest gap in its brief (a missing element, a misapplied or distinguishable authority, an ignored fact) or a misconception the debaters share.`,
    `Reply with only a JSON object, one question per debater: {"questions": {${to.map((l) => `"${l}": "<your question to Debater ${l}>"`).join(', ')}}}`,
  ].join('\n');
}

export function crossAnswerPrompt(q: Question, own: Brief, question: string): string {
  return [
    questionBlock(q),
    '',
    'Your final brief:',
    briefText(own),
    '',
    `The Cross-Examiner asks you, Debater ${own.letter}: ${question}`,
    'Answer it briefly and honestly, citing authorities by id where you rely on them.',
    'Reply with only a JSON object: {"answer": "<your answer>"}',
  ].join('\n');
}

export const JUDGE_SYSTEM = [
  'You are the Judge of a structured legal debate about a multiple-choice bar exam question.',
  'Each debater defended one option. Decide which option is legally correct on the merits — not which debater argued more — checking (i) doctrinal relevance, (ii) citation correctness against the authorities shown, (iii) whether the application to the facts is sufficient.',
].join(' ');

/** `cited`: the passages outside the pool that the briefs cite (snippets debaters requested), shown after the pool. */
export function judgePrompt(
  q: Question,
  pool: ShownPassage[],
  cited: ShownPassage[],
  briefs: Brief[],
  cross: CrossExamination | undefined,
  chars: number,
): string {
  const parts = [
    questionBlock(q),
    '',
    evidenceBlock(pool, chars),
    ...citedBlock(cited, chars, FURTHER_AUTHORITIES),
    '',
    'Final briefs (one per option):',
    ...briefs.map(briefText),
  ];
  if (cross && cross.questions.length) {
    parts.push('', 'Cross-examination:');
    const at = (l: string) => briefs.findIndex((b) => b.letter === l); // in the order the briefs are shown
    for (const x of [...cross.questions].sort((a, b) => at(a.letter) - at(b.letter)))
      parts.push(`  To Debater ${x.letter}: ${x.question}`, `  Answer: ${x.answer}`);
  }
  parts.push(
    '',
    'Select the correct option. Give a rationale of exactly 3 bullets, and fill the checklist for the winning brief: doctrine_named (it names the governing doctrine), on_point_authority (it cites an on-point authority), accurate_use (its authorities say what it claims), logical_application (it applies the rule to the facts logically), opponent_addressed (it answers the opposing arguments).',
    'List under unsupported_citations the ids the winning brief cites that do not support the claim they are attached to.',
    'Reply with only a JSON object, the rationale first: {"rationale": ["<bullet 1>", "<bullet 2>", "<bullet 3>"], "verdict": "<option letter>", "checklist": {"doctrine_named": true|false, "on_point_authority": true|false, "accurate_use": true|false, "logical_application": true|false, "opponent_addressed": true|false}, "unsupported_citations": ["<id>", ...]}',
  );
  return parts.join('\n');
}

export const ANALYST_SYSTEM = 'You are a single legal analyst answering a multiple-choice bar exam question with retrieved authorities.';

export function citedAnswerPrompt(q: Question, pool: PoolPassage[], chars: number): string {
  return [
    questionBlock(q),
    '',
    evidenceBlock(pool, chars),
    '',
    'Choose the legally correct option. Cite the authority for every legal claim by its passage id; cite only ids shown above.',
    `Reply with only a JSON object: {"reasoning": "<short reasoning>", "answer": "<one option letter>", ${CLAIMS_FORMAT}}`,
  ].join('\n');
}
