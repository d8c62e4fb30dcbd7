/**
 * How a run reads an option letter (agents/common/option-letter.ts) changed on 2026-11-30: a hedged
 * reply ("A or D", then "(A) or (D)", "B. Not B; the answer is C") was read as its first letter, and
 * is now refused (asked again once, then the step fails). The request schema did not change (the
 * `prompts` fingerprint hashes the enum sent, not how a reply is read), so a run dir an older
 * lexcase started resumed with no word: its earlier items' votes and answers read one way, the new
 * ones another, in one accuracy. Every run that reads option letters — the MCQ baselines and CASE
 * (runCaseExperiment), MAD and its baselines, EMAR — now records the reading (`optionLetterReading`),
 * and a run dir without it resumes with a warning naming it (eval/resume-unrecorded.ts), as ACAL's
 * `yesNoReading` does. The real client against a scripted server on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { loadQuestions } from '../../corpora/registry.js';
import { closeSparseIndexes } from '../../retrieval/open-sparse.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { schemaFollowing, startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runCaseExperiment } from '../case/experiment.js';
import { runEmarExperiment } from '../emar/experiment.js';
import { bowEmbedder } from '../emar/test-support/bow-embedder.js';
import { runMadExperiment } from '../mad/experiment.js';
import { OPTION_LETTER_READING } from './option-letter.js';
import { REPLY_READING, REPLY_READING_BEFORE_HARMONY, REPLY_READING_BEFORE_REPEATS } from '../../core/llm/reply-reading.js';

let dir: string;
let index: string;
let srv: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'option-letter-reading-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: 2 });
  srv = await startScriptedServer(schemaFollowing());
}, 120_000);
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await srv.close();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const llm = () => createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', cacheDir: false, maxRetries: 0, timeoutMs: 10_000 }));
const configFile = (runDir: string) => join(runDir, 'config.json');
const recorded = (runDir: string) => JSON.parse(readFileSync(configFile(runDir), 'utf8'));

describe('optionLetterReading', () => {
  it('an MCQ baseline run records it; a run dir an older lexcase started (none recorded) resumes with a warning naming it, and records it from then on', async () => {
    const runDir = join(dir, 'llm-only');
    const run = (limit: number) =>
      runCaseExperiment({ system: 'baseline', mode: 'llm-only', llm: llm(), dataset: 'barexam', split: 'val', index, limit, runDir });
    await run(1);
    const old = recorded(runDir);
    expect(old.config.optionLetterReading).toBe(OPTION_LETTER_READING);
    delete old.config.optionLetterReading; // what an older lexcase wrote
    writeFileSync(configFile(runDir), JSON.stringify(old));
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
    const r = await run(2);
    expect(r).toMatchObject({ ran: 1, skipped: 1, failed: 0 });
    expect(stderr).toMatch(
      /does not record optionLetterReading \(how an option letter is read: an older lexcase read a hedged reply \("A or D", "\(A\) or \(D\)"/,
    );
    expect(recorded(runDir)).toMatchObject({ config: { optionLetterReading: OPTION_LETTER_READING }, resumes: [{ unchecked: ['optionLetterReading'] }] });
  }, 120_000);

  it.each([
    [
      '2026-12-01 ("B. Not B; the answer is c" read as B)',
      'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option ("(A) or (D)")',
      'lower',
    ],
    [
      // before: this one, recorded until then, resumed with no word though "Answer: A lawyer …" was read (and counted) otherwise
      '2026-12-02 ("B. Final answer: **C**" read as B, "Answer: A lawyer …" read as A)',
      'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c")',
      'named',
    ],
    [
      // recorded before a condition cut by a set-off clause named no letter
      '2026-12-02\'s fifth change ("C. If, as the buyer argues, the answer is B, …" refused as two answers)',
      'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition ("C. If the answer is B, …", "whether the answer is D", "the answer is B only if …")',
      'aside',
    ],
    [
      // recorded before another party's reported position named no letter
      '2026-12-02\'s sixth change ("C. The seller argues that the answer is B." refused as two answers)',
      'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition, a clause set off inside it or not ("C. If the answer is B, …", "C. If, as the buyer argues, the answer is B, …", "whether the answer is D", "the answer is B only if …")',
      'reported',
    ],
    [
      // recorded before a phrase set off before "is" named the letter and other reporting verbs named none
      '2026-12-02\'s seventh change ("C. The answer, in my view, is B." read as C)',
      'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition, a clause set off inside it or not ("C. If the answer is B, …", "C. If, as the buyer argues, the answer is B, …", "whether the answer is D", "the answer is B only if …", nor one another party is reported to give ("C. The seller argues that the answer is B.")',
      'interjection',
    ],
    [
      // recorded before the reply's own analysis as the subject ("This analysis concludes …") named the letter
      '2026-12-03 ("C. This analysis concludes that the answer is B." read as C)',
      'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition, a clause set off inside it or not ("C. If the answer is B, …", "C. If, as the buyer argues, the answer is B, …", "whether the answer is D", "the answer is B only if …", nor one another party is reported to give ("C. The seller argues that the answer is B."), nor one another party is reported to hold ("C. The court held that the answer is B.", "Many believe the answer is B"), nor one followed by a condition after a comma or dash ("C. The answer is B, but only if …", "the answer is B, unless …"); a phrase set off before "is" leaves it named ("C. The answer, in my view, is B." names two)',
      'own-work',
    ],
    [
      // recorded before a letter followed by another option's text whole named no letter
      '2026-12-05 ("B. <option A\'s text>" read as B)',
      'alone or marked, any case ("b", "(B)", "B.", "B. <text>"); none where text follows a bare letter ("A or D") or names another option in either case ("(A) or (D)", "B. Not B; the answer is c", "B. **Answer:** C", "B. My vote: C", "B. Option C is the correct answer."); a letter named as the answer, vote or verdict there and in the text beside a forced call (tokens.textOtherAnswer) by one rule, never an article ("Answer: A lawyer …") nor a letter under a condition, a clause set off inside it or not ("C. If the answer is B, …", "C. If, as the buyer argues, the answer is B, …", "whether the answer is D", "the answer is B only if …", nor one another party is reported to give ("C. The seller argues that the answer is B."), nor one another party is reported to hold ("C. The court held that the answer is B.", "Many believe the answer is B"), the reply\'s own analysis not another party ("C. This analysis concludes that the answer is B." names two, as "C. I argued that the answer is B." does), nor one followed by a condition after a comma or dash ("C. The answer is B, but only if …", "the answer is B, unless …"); a phrase set off before "is" leaves it named ("C. The answer, in my view, is B." names two)',
      'option-text',
    ],
  ])(
    'a run dir that records the reading of before %s resumes with a warning saying it records an older one',
    async (_when, older, name) => {
      const runDir = join(dir, `llm-only-older-${name}`);
      const run = (limit: number) =>
        runCaseExperiment({ system: 'baseline', mode: 'llm-only', llm: llm(), dataset: 'barexam', split: 'val', index, limit, runDir });
      await run(1);
      const old = recorded(runDir);
      old.config.optionLetterReading = older; // what that lexcase recorded
      writeFileSync(configFile(runDir), JSON.stringify(old));
      let stderr = '';
      vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
      const r = await run(2);
      expect(r).toMatchObject({ ran: 1, skipped: 1, failed: 0 });
      expect(stderr).toMatch(
        /written by an older lexcase and records an older optionLetterReading \(how an option letter is read: .*read "B\. Not B; the answer is c" .* as B.*"Answer: A lawyer …" beside a forced call/,
      );
      expect(stderr).not.toMatch(/does not record optionLetterReading/);
      expect(recorded(runDir)).toMatchObject({ config: { optionLetterReading: OPTION_LETTER_READING }, resumes: [{ unchecked: ['optionLetterReading'] }] });
    },
    120_000,
  );

  it('CASE, a MAD baseline and EMAR record it; the offline CASE, which reads no reply, does not', async () => {
    const caseDir = join(dir, 'case');
    await runCaseExperiment({
      system: 'case',
      llm: llm(),
      dataset: 'barexam',
      split: 'val',
      index,
      limit: 1,
      runDir: caseDir,
      jurors: 1,
      maxSteps: 1,
      k: 2,
      tools: ['bm25'],
    });
    expect(recorded(caseDir).config.optionLetterReading).toBe(OPTION_LETTER_READING);

    const madDir = join(dir, 'mad');
    await runMadExperiment({ system: 'single-rag', llm: llm(), dataset: 'barexam', split: 'val', index, limit: 1, runDir: madDir });
    expect(recorded(madDir).config.optionLetterReading).toBe(OPTION_LETTER_READING);

    const emarDir = join(dir, 'emar');
    const items = (await loadQuestions('barexam', 'val')).slice(0, 1).map((q) => ({ ...q, kind: 'question' as const }));
    await runEmarExperiment({
      runDir: emarDir,
      dataset: 'barexam',
      split: 'val',
      items,
      model: llm(),
      embedder: bowEmbedder(),
      epsilon: 0.9,
      maxDepth: 1,
      convergence: 'stance',
      seed: 13,
      llm: { model: 'm' },
    });
    expect(recorded(emarDir).config.optionLetterReading).toBe(OPTION_LETTER_READING);

    const offlineDir = join(dir, 'offline');
    await runCaseExperiment({ system: 'case', offline: true, evidence: 'plan', dataset: 'barexam', split: 'val', index, limit: 1, runDir: offlineDir });
    expect(recorded(offlineDir).config).not.toHaveProperty('optionLetterReading');
  }, 180_000);
});

/**
 * How replies are read (`replyReading`, core/llm/reply-reading.ts) changed on 2026-12-01: a draft
 * object in a `<thinking>` block or a gpt-oss Harmony analysis channel was taken for the answer, and
 * so was the first of two different objects in one reply. A run dir that records the older reading
 * resumes with a warning saying so, and records the new one from then on. So does one recording the
 * reading of before 2026-12-02, when a tool call sent twice in one reply ran twice.
 */
describe('replyReading', () => {
  it.each([
    ['2026-12-01 (only <think> blocks dropped)', REPLY_READING_BEFORE_HARMONY, 'harmony'],
    ['2026-12-02 (a tool call sent twice in one reply ran twice)', REPLY_READING_BEFORE_REPEATS, 'repeats'],
  ])(
    'a run dir that records the reading of before %s resumes with a warning saying it records an older one',
    async (_when, older, name) => {
      const runDir = join(dir, `llm-only-reply-reading-${name}`);
      const model = llm();
      const run = (limit: number) =>
        runCaseExperiment({ system: 'baseline', mode: 'llm-only', llm: model, model: { model: 'm' }, dataset: 'barexam', split: 'val', index, limit, runDir });
      await run(1);
      const old = recorded(runDir);
      expect(old.config.replyReading).toBe(REPLY_READING);
      old.config.replyReading = older;
      writeFileSync(configFile(runDir), JSON.stringify(old));
      let stderr = '';
      vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
      const r = await run(2);
      expect(r).toMatchObject({ ran: 1, skipped: 1, failed: 0 });
      expect(stderr).toMatch(
        /records an older replyReading \(how replies are read: .*ran a tool call a reply sent twice .*<thinking> block or a gpt-oss Harmony analysis channel/,
      );
      expect(recorded(runDir)).toMatchObject({ config: { replyReading: REPLY_READING }, resumes: [{ unchecked: ['replyReading'] }] });
    },
    120_000,
  );
});
