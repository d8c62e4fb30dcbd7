/**
 * A reply whose option letter is followed by another option's text, copied whole ("B. The contract is void."
 * where that is option A's text, not B's), names two options. Before 2026-12-05 it was read as B: the item
 * scored on the letter while the model's own words chose A, with no word anywhere. Now it names no letter,
 * as "B. Option C is the correct answer." does: the structured-output layer asks once more, and a second
 * such reply fails the step. The schemas of every system that reads an option letter are given the options'
 * texts (CASE's jurors, the MCQ baselines, MAD's judge and cited answers, EMAR's parties and judge); an MCQ
 * baseline run is driven end to end with the real client against a scripted server on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { closeSparseIndexes } from '../../retrieval/open-sparse.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { answerSchema } from '../case/baselines/mcq-prompt.js';
import { runCaseExperiment } from '../case/experiment.js';
import { voteSchema } from '../case/juror.js';
import { claimSchema, judgeSchema as emarJudgeSchema } from '../emar/schemas.js';
import { citedAnswerSchema, judgeSchema as madJudgeSchema } from '../mad/schemas.js';
import { CHECKLIST_ITEMS } from '../mad/types.js';
import { optionLetterOf, optionTexts } from './option-letter.js';

const CHOICES = ['The contract is void.', 'The contract is voidable at the buyer’s option.', 'The seller may recover the price.', ''];
const TEXTS = optionTexts(CHOICES);

describe('optionLetterOf with the options’ texts', () => {
  it.each([
    ['B. The contract is void.', undefined],
    ['B) the contract is void', undefined],
    ['(B) **The contract is void.**', undefined],
    ['B. "The contract is void."', undefined],
    ['C: The contract is void.', undefined],
    // its own text, or text that is no option's whole text, keeps the letter
    ['B. The contract is voidable at the buyer’s option.', 'B'],
    ['A. The contract is void.', 'A'],
    ['B. The contract is void only in part.', 'B'],
    ['B. The contract is void as to the buyer, so it is voidable.', 'B'],
    ['B', 'B'],
  ])('%s → %s', (reply, letter) => {
    expect(optionLetterOf(reply, ['A', 'B', 'C'], TEXTS)).toBe(letter);
    // without the texts (a caller of its own), the letter as before
    expect(optionLetterOf(reply, ['A', 'B', 'C'])).toBe(reply.match(/[A-C]/)?.[0]);
  });

  it('two options with the same text: a letter followed by it is that letter (its own text)', () => {
    expect(optionLetterOf('B. Yes.', ['A', 'B'], optionTexts(['Yes.', 'Yes.']))).toBe('B');
  });

  it('an empty option is no text to copy', () => {
    expect(TEXTS).toEqual({ A: CHOICES[0], B: CHOICES[1], C: CHOICES[2] });
    expect(optionLetterOf('B.', ['A', 'B', 'C'], TEXTS)).toBe('B');
  });
});

describe('every schema that reads an option letter is given the texts', () => {
  const letters = ['A', 'B', 'C'];
  const copied = 'B. The contract is void.';
  const own = 'B. The contract is voidable at the buyer’s option.';
  it.each([
    ['CASE juror vote', (v: string) => voteSchema(letters, TEXTS).safeParse({ reasoning: 'r', vote: v })],
    ['MCQ baseline answer', (v: string) => answerSchema(letters, TEXTS).safeParse({ reasoning: 'r', answer: v })],
    [
      'MAD judge verdict',
      (v: string) =>
        madJudgeSchema(letters, ['P1'], TEXTS).safeParse({
          rationale: ['a', 'b', 'c'],
          verdict: v,
          checklist: Object.fromEntries(CHECKLIST_ITEMS.map((k) => [k, true])),
          unsupported_citations: [],
        }),
    ],
    ['MAD cited answer', (v: string) => citedAnswerSchema(letters, ['P1'], TEXTS).safeParse({ reasoning: 'r', answer: v, claims: [] })],
    ['EMAR party', (v: string) => claimSchema(letters, CHOICES).safeParse({ evidence: [], argument: 'a', claim: 'c', answer: v })],
    ['EMAR judge', (v: string) => emarJudgeSchema(letters, CHOICES).safeParse({ established_facts: [], rationale: 'r', answer: v })],
  ])('%s: refuses a letter followed by another option’s text, reads one followed by its own', (_what, parse) => {
    expect(parse(copied).success).toBe(false);
    const ok = parse(own);
    expect(ok.success, JSON.stringify(ok.error?.issues)).toBe(true);
  });
});

describe('an MCQ baseline run against a server whose reply copies another option’s text', () => {
  let dir: string;
  let index: string;
  let srv: ScriptedServer;
  /** Option A's text as the request showed it (the prompt's "A. …" line). */
  const optionA = (req: RecordedRequest) => /^A\. (.+)$/m.exec(JSON.stringify(req.body.messages).replace(/\\n/g, '\n'))?.[1] ?? '';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'option-text-copied-'));
    index = join(dir, 'idx');
    await buildSmallBarexamIndex(index, { items: 1 });
    // the first reply: letter B with option A's text; asked again, the letter A alone
    srv = await startScriptedServer((req, i) => ({ content: JSON.stringify({ reasoning: 'r', answer: i === 0 ? `B. ${optionA(req)}` : 'A' }) }));
  }, 120_000);
  afterAll(async () => {
    await srv.close();
    await closeSparseIndexes();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is asked again and reads the answer it gives then (before: read as B from the first reply)', async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const runDir = join(dir, 'run');
    const llm = createChatModel(
      llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', cacheDir: false, maxRetries: 0, timeoutMs: 10_000, structuredOutput: 'prompt' }),
    );
    const r = await runCaseExperiment({ system: 'baseline', mode: 'llm-only', llm, dataset: 'barexam', split: 'val', index, limit: 1, runDir });
    vi.restoreAllMocks();
    expect(r).toMatchObject({ ran: 1, failed: 0 });
    expect(optionA(srv.requests[0]).length).toBeGreaterThan(10);
    expect(srv.requests).toHaveLength(2);
    const line = JSON.parse(readFileSync(join(runDir, 'results.jsonl'), 'utf8').trim().split('\n')[0]);
    expect(line.prediction).toBe('A');
  }, 120_000);
});
