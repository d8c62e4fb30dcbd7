/**
 * Tool mode (structured output through a forced function call): a reply whose `content` says
 * "Answer: C" while its call's arguments say {"answer": "B"}. The call is read (B); before
 * 2026-12-02 nothing counted the disagreement. Now results.jsonl counts it (`tokens.textOtherAnswer`),
 * the end-of-run line, report.md's Tokens section and report.json say it. Text naming no letter,
 * or the same one, is not counted. Driven through the factory's real client against a scripted server
 * on 127.0.0.1, with the option-letter schema every letter-answering system uses.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { invokeStructured } from '../../core/llm/structured.js';
import { setLogLevel } from '../../core/log.js';
import { readRun } from '../../eval/report/read-run.js';
import { tokensSection } from '../../eval/report/sections/tokens.js';
import { runReplyFlags, replyFlagsText } from '../../eval/run-counts.js';
import { readResults } from '../../eval/run-dir.js';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import { ONE_LETTER_ITEMS, type OneLetterItem } from '../../eval/test-support/one-letter-system.js';
import type { AgentSystem } from '../../eval/types.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { optionLetterSchema } from './option-letter.js';

const schema = z.object({ rationale: z.string(), answer: optionLetterSchema(['A', 'B', 'C', 'D']) });
const answer: AgentSystem<OneLetterItem> = async (item, ctx) => {
  const r = await invokeStructured(ctx.llm!, [new HumanMessage(`[${item.id}] Answer with one letter.`)], schema, { what: 'answer', signal: ctx.signal });
  return { prediction: r.value.answer, trace: {} };
};

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-text-other-'));
  setLogLevel('error');
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  setLogLevel('info');
  rmSync(dir, { recursive: true, force: true });
});

const run = async (content: (r: RecordedRequest) => string | undefined) => {
  srv = await startScriptedServer((r) => ({
    content: content(r),
    toolCalls: [{ name: 'answer', args: { rationale: 'the hearsay rule', answer: 'B' } }],
    usage: { prompt_tokens: 100, completion_tokens: 16 },
  }));
  const runDir = join(dir, 'run');
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, structuredOutput: 'tool' }));
  await runExperiment({
    runDir,
    system: answer,
    items: ONE_LETTER_ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'baseline' },
    seed: 1,
  });
  const records = (await readResults(runDir)).records;
  return { runDir, records };
};

describe('a forced call whose reply text names another answer', () => {
  it('"Answer: C" beside {"answer": "B"}: the call is read and the reply counted in results, the end-of-run line and report.md/json', async () => {
    const { runDir, records } = await run((r) => {
      const m = JSON.stringify(r.body.messages);
      if (m.includes('[mbe_137]')) return 'Answer: C';
      if (m.includes('[mbe_581]')) return 'Let me think about the hearsay rule.'; // prose naming no letter: not counted
      return '{"rationale": "x", "answer": "(B)"}'; // the same answer, in another spelling: not counted
    });
    expect(records.map((r) => [r.id, r.prediction, r.tokens?.textOtherAnswer])).toEqual([
      ['mbe_137', 'B', 1],
      ['mbe_581', 'B', undefined],
      ['mbe_222', 'B', undefined],
    ]);
    expect(replyFlagsText(runReplyFlags(records))).toBe("; 1 reply named another answer in its text than the one read (its call's or answer field's)");
    const t = (await tokensSection(await readRun(runDir), {} as never))!;
    expect(t.json).toMatchObject({ calls: 3, textOtherAnswer: 1 });
    expect(t.markdown).toContain("**1 reply named another answer in its text than the one read (its call's or answer field's)**");
  });

  it('a JSON object in the text with another answer, or "the answer is (d)", counts; so do two letters named when neither is the call\'s ("Answer: C … Answer: D" beside B)', async () => {
    // before: two letters named were never counted, though neither was the call's B
    const { records } = await run((r) => {
      const m = JSON.stringify(r.body.messages);
      if (m.includes('[mbe_137]')) return '{"rationale": "draft", "answer": "A"}';
      if (m.includes('[mbe_581]')) return 'so the answer is (d).';
      return 'Answer: C at first; on reflection Answer: D';
    });
    expect(records.map((r) => [r.prediction, r.tokens?.textOtherAnswer])).toEqual([
      ['B', 1],
      ['B', 1],
      ['B', 1],
    ]);
  });

  it('two letters named, one of them the call\'s ("Answer: C … on reflection, answer: B" beside B), are not counted: the text may have settled on the call\'s', async () => {
    const { records } = await run(() => 'Answer: C at first; on reflection, answer: B');
    expect(records.map((r) => r.tokens?.textOtherAnswer)).toEqual([undefined, undefined, undefined]);
  });

  it('"Answer: A lawyer must …" (an article, not a letter) is not counted; "Answer: A lawyer … Final answer: D" counts D', async () => {
    // before: the article "A" was read as the letter A, so the first was counted and the second named "two letters", uncounted
    const { records } = await run((r) => {
      const m = JSON.stringify(r.body.messages);
      if (m.includes('[mbe_137]')) return 'Answer: A lawyer must disclose the conflict to the client.';
      if (m.includes('[mbe_581]')) return 'Answer: A lawyer may not act against a former client.\n\nFinal answer: D';
      return 'The answer is A because the statement is hearsay.';
    });
    expect(records.map((r) => [r.id, r.tokens?.textOtherAnswer])).toEqual([
      ['mbe_137', undefined],
      ['mbe_581', 1],
      ['mbe_222', 1],
    ]);
  });

  it('"ANSWER: C", "**Answer:** Option C" and "the answer is c." count, as "Answer: C" does', async () => {
    // before: none was counted (the word in capitals, "Option" before the letter, a lower-case letter alone)
    const { records } = await run((r) => {
      const m = JSON.stringify(r.body.messages);
      if (m.includes('[mbe_137]')) return 'ANSWER: C';
      if (m.includes('[mbe_581]')) return '**Answer:** Option C';
      return 'So the answer is c.';
    });
    expect(records.map((r) => r.tokens?.textOtherAnswer)).toEqual([1, 1, 1]);
  });

  it('a letter under a condition ("If the answer is C, …", "the answer is C only if …") is not counted; one named after it ("…; but the answer is C") is', async () => {
    // before: the first two counted C, a reply that only discussed a hypothetical; the third named B and C, uncounted
    const { records } = await run((r) => {
      const m = JSON.stringify(r.body.messages);
      if (m.includes('[mbe_137]')) return 'If the answer is C, the seller would win; the deed was never delivered.';
      if (m.includes('[mbe_581]')) return 'The answer is C only if the statement is offered for its truth.';
      return 'If the answer is B, the seller wins; but the answer is C.';
    });
    expect(records.map((r) => [r.id, r.prediction, r.tokens?.textOtherAnswer])).toEqual([
      ['mbe_137', 'B', undefined],
      ['mbe_581', 'B', undefined],
      ['mbe_222', 'B', 1],
    ]);
  });

  it(`Markdown emphasis as chat models write it ("**Answer:** C", "Answer: **C**") counts; "**Answer:** B", the call's own, does not`, async () => {
    // before: "**Answer:** C" beside {"answer": "B"} was not counted (the "**" between the colon and the letter)
    const { records } = await run((r) => {
      const m = JSON.stringify(r.body.messages);
      if (m.includes('[mbe_137]')) return 'The statement is hearsay.\n\n**Answer:** C';
      if (m.includes('[mbe_581]')) return 'Answer: **C**';
      return '**Answer:** B';
    });
    expect(records.map((r) => [r.prediction, r.tokens?.textOtherAnswer])).toEqual([
      ['B', 1],
      ['B', 1],
      ['B', undefined],
    ]);
  });
});
