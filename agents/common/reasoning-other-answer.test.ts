/**
 * Replies whose text names another answer than the one read, beyond a forced call's letter
 * (agents/common/text-other-answer.test.ts): a Yes/No answer ("Answer: No" beside {"decision": "Yes"},
 * ACAL's judge; its baselines' and LegalBench's `answer`), and in json_schema or prompt mode a reasoning
 * field or the prose around the JSON object ({"reasoning": "… so the answer is C.", "answer": "B"}). Before
 * 2026-12-02 none was counted; now each is counted in `tokens.textOtherAnswer` as the forced call's letter
 * is, and the answer read is unchanged (the call's or the answer field's). Discussion ("option C is
 * tempting, but …", "if the answer is no, …") names no answer and is not counted. Driven through the
 * factory's real client against a scripted server on 127.0.0.1 and the runner's results.jsonl.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { llmConfigSchema } from '../../core/config.js';
import { declareAnswerFields } from '../../core/llm/answer-fields.js';
import { createChatModel } from '../../core/llm/factory.js';
import { invokeStructured } from '../../core/llm/structured.js';
import { TEXT_OTHER_ANSWER_READING } from '../../core/llm/text-beside-call.js';
import { setLogLevel } from '../../core/log.js';
import { readRun } from '../../eval/report/read-run.js';
import { tokensSection } from '../../eval/report/sections/tokens.js';
import { readResults } from '../../eval/run-dir.js';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import { ONE_LETTER_ITEMS, type OneLetterItem } from '../../eval/test-support/one-letter-system.js';
import type { AgentSystem } from '../../eval/types.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptReply } from '../../tests/support/scripted-openai-server.js';
import { optionLetterSchema } from './option-letter.js';
import { yesNoSchema } from './yes-no.js';

const letterSchema = z.object({ reasoning: z.string(), answer: optionLetterSchema(['A', 'B', 'C', 'D']) });
const judgeSchema = z.object({ reasoning: z.string().default(''), decision: yesNoSchema() });

const system =
  (schema: z.ZodType, field: string): AgentSystem<OneLetterItem> =>
  async (item, ctx) => {
    const r = await invokeStructured(ctx.llm!, [new HumanMessage(`[${item.id}] Answer.`)], schema, { what: 'answer', signal: ctx.signal });
    return { prediction: (r.value as Record<string, string>)[field], trace: {} };
  };

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reasoning-other-'));
  setLogLevel('error');
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  setLogLevel('info');
  rmSync(dir, { recursive: true, force: true });
});

/** Each item's reply by its id in the request. */
const byItem = (replies: Record<string, ScriptReply>) => (r: RecordedRequest) => {
  const m = JSON.stringify(r.body.messages);
  return replies[Object.keys(replies).find((id) => m.includes(`[${id}]`))!];
};

async function run(
  mode: 'tool' | 'json_schema' | 'prompt',
  schema: z.ZodType,
  field: string,
  replies: Record<string, ScriptReply>,
  runDir = join(dir, 'run'),
  limit = 3,
) {
  srv = await startScriptedServer(byItem(replies));
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, structuredOutput: mode }));
  await runExperiment({
    runDir,
    system: system(schema, field),
    items: ONE_LETTER_ITEMS.slice(0, limit),
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'baseline' },
    seed: 1,
  });
  await srv.close();
  srv = undefined;
  return (await readResults(runDir)).records.map((r) => [r.id, r.prediction, r.tokens?.textOtherAnswer]);
}

const call = (args: object, content?: string): ScriptReply => ({ content, toolCalls: [{ name: 'answer', args }] });
const text = (content: string): ScriptReply => ({ content });

describe('a Yes/No answer whose text names the other label', () => {
  it('tool mode: "Answer: No" beside {"decision": "Yes"} counts; "If the answer is no, …" and "Answer: Yes" do not; the call is read', async () => {
    const yes = { reasoning: 'the statement is offered for its truth', decision: 'Yes' };
    expect(
      await run('tool', judgeSchema, 'decision', {
        mbe_137: call(yes, 'Answer: No'),
        mbe_581: call(yes, 'If the answer is no, the claim fails; but the statement is hearsay.'),
        mbe_222: call(yes, 'Answer: Yes'),
      }),
    ).toEqual([
      ['mbe_137', 'Yes', 1],
      ['mbe_581', 'Yes', undefined],
      ['mbe_222', 'Yes', undefined],
    ]);
  });

  it('json_schema mode: {"reasoning": "… so the answer is No.", "decision": "Yes"} counts; "the answer is no longer in doubt" does not', async () => {
    expect(
      await run('json_schema', judgeSchema, 'decision', {
        mbe_137: text('{"reasoning": "The statement is not offered for its truth, so the answer is No.", "decision": "Yes"}'),
        mbe_581: text('{"reasoning": "The answer is no longer in doubt: it is hearsay.", "decision": "Yes"}'),
        mbe_222: text('{"reasoning": "**Decision:** yes.", "decision": "Yes"}'),
      }),
    ).toEqual([
      ['mbe_137', 'Yes', 1],
      ['mbe_581', 'Yes', undefined],
      ['mbe_222', 'Yes', undefined],
    ]);
  });
});

describe('a letter or label under a condition names no answer', () => {
  it('json_schema: a reasoning "If the answer is C, …" or "the answer is C only if …" beside "answer": "B" is not counted; "whether the answer is C …; the answer is D" counts D', async () => {
    // before: all three counted, the first two C (a hypothetical the reasoning discussed and set aside), the third C then D
    expect(
      await run('json_schema', letterSchema, 'answer', {
        mbe_137: text('{"reasoning": "If the answer is C, the seller would win, but the deed was never delivered.", "answer": "B"}'),
        mbe_581: text('{"reasoning": "The answer is C only if the statement is offered for its truth; it is not.", "answer": "B"}'),
        mbe_222: text('{"reasoning": "The parties argue whether the answer is C; the answer is D.", "answer": "B"}'),
      }),
    ).toEqual([
      ['mbe_137', 'B', undefined],
      ['mbe_581', 'B', undefined],
      ['mbe_222', 'B', 1],
    ]);
  });

  it('json_schema: a reasoning sentence "Option C is the correct answer." beside "answer": "B" counts; "Option C is correct." (a true statement) does not', async () => {
    // before: neither counted
    expect(
      await run(
        'json_schema',
        letterSchema,
        'answer',
        {
          mbe_137: text('{"reasoning": "The statement is offered for its truth. Option C is the correct answer.", "answer": "B"}'),
          mbe_581: text('{"reasoning": "Option A is correct. Option C is correct. Option B is not.", "answer": "B"}'),
        },
        join(dir, 'option'),
        2,
      ),
    ).toEqual([
      ['mbe_137', 'B', 1],
      ['mbe_581', 'B', undefined],
    ]);
  });

  it('tool mode: "If the correct answer is no, …" beside {"decision": "Yes"} is not counted, as "If the answer is no, …" was not', async () => {
    // before: counted (only "if the answer"/"whether the answer" exactly guarded a label)
    const yes = { reasoning: 'the statement is offered for its truth', decision: 'Yes' };
    expect(
      await run('tool', judgeSchema, 'decision', { mbe_137: call(yes, 'If the correct answer is no, the claim fails; it does not.') }, join(dir, 'label'), 1),
    ).toEqual([['mbe_137', 'Yes', undefined]]);
  });
});

describe('json_schema and prompt mode: reasoning or prose naming another answer than the answer field', () => {
  it('json_schema: the reasoning\'s "so the answer is C" beside "answer": "B" counts, and is said in report.md; "option C is tempting, but …" does not', async () => {
    const runDir = join(dir, 'json');
    expect(
      await run(
        'json_schema',
        letterSchema,
        'answer',
        {
          mbe_137: text('{"reasoning": "The hearsay rule excludes it, so the answer is C.", "answer": "B"}'),
          mbe_581: text('{"reasoning": "Option C is tempting, but the exception applies.", "answer": "B"}'),
          mbe_222: text('{"reasoning": "Answer: C at first; on reflection, answer: B.", "answer": "B"}'),
        },
        runDir,
      ),
    ).toEqual([
      ['mbe_137', 'B', 1],
      ['mbe_581', 'B', undefined],
      ['mbe_222', 'B', undefined],
    ]);
    const md = (await tokensSection(await readRun(runDir), {} as never))?.markdown ?? '';
    expect(md).toContain("**1 reply named another answer in its text than the one read (its call's or answer field's)**");
    expect(md).toContain('in json_schema or prompt mode its reasoning field or the prose around its JSON object');
  });

  it('prompt mode: "The answer is C." before a fenced {"answer": "B"} counts, as does a `rationale` naming D; a debater\'s `argument` quoting its opponent does not', async () => {
    const schema = z.object({ argument: z.string().default(''), rationale: z.string().default(''), answer: optionLetterSchema(['A', 'B', 'C', 'D']) });
    expect(
      await run('prompt', schema, 'answer', {
        mbe_137: text('The answer is C.\n```json\n{"answer": "B"}\n```'),
        mbe_581: text('{"rationale": "It is not hearsay. Answer: D", "answer": "B"}'),
        mbe_222: text('{"argument": "My opponent says the answer is C.", "answer": "B"}'),
      }),
    ).toEqual([
      ['mbe_137', 'B', 1],
      ['mbe_581', 'B', 1],
      ['mbe_222', 'B', undefined],
    ]);
  });

  it('tool mode: a forced call whose own `reasoning` names another letter counts', async () => {
    expect(await run('tool', letterSchema, 'answer', { mbe_137: call({ reasoning: 'so the answer is (d).', answer: 'B' }) }, join(dir, 'tool'), 1)).toEqual([
      ['mbe_137', 'B', 1],
    ]);
  });
});

// before: only the fields answer/vote/verdict/decision and reasoning/rationale/explanation/justification were read, whatever
// the schema: a system whose answer is `choice` or `holding`, or whose reasoning is `analysis`, was never checked
describe('the answer and reasoning fields a schema declares (core/llm/answer-fields.ts)', () => {
  const choiceSchema = declareAnswerFields(z.object({ analysis: z.string(), choice: optionLetterSchema(['A', 'B', 'C', 'D']) }), {
    answer: 'choice',
    reasoning: ['analysis'],
  });
  const holdingSchema = declareAnswerFields(z.object({ analysis: z.string().default(''), holding: yesNoSchema() }), {
    answer: 'holding',
    reasoning: ['analysis'],
  });

  it('json_schema: an `analysis` concluding "the answer is C" beside "choice": "B" counts; one naming B, or C under a condition, does not', async () => {
    expect(
      await run(
        'json_schema',
        choiceSchema,
        'choice',
        {
          mbe_137: text('{"analysis": "The recording act protects the subsequent purchaser, so the answer is C.", "choice": "B"}'),
          mbe_581: text('{"analysis": "The deed was never delivered. Answer: B", "choice": "B"}'),
          mbe_222: text('{"analysis": "If, as the grantee argues, the answer is C, the deed fails; it does not.", "choice": "B"}'),
        },
        join(dir, 'choice'),
      ),
    ).toEqual([
      ['mbe_137', 'B', 1],
      ['mbe_581', 'B', undefined],
      ['mbe_222', 'B', undefined],
    ]);
  });

  it('tool mode: a Yes/No `holding` whose `analysis` says "The answer is No." counts', async () => {
    expect(
      await run(
        'tool',
        holdingSchema,
        'holding',
        { mbe_137: call({ analysis: 'The statement is not offered for its truth. The answer is No.', holding: 'Yes' }) },
        join(dir, 'holding'),
        1,
      ),
    ).toEqual([['mbe_137', 'Yes', 1]]);
  });

  it('a schema declaring no reasoning field has none read: a `reasoning` naming C beside "answer": "B" is not counted', async () => {
    const schema = declareAnswerFields(z.object({ reasoning: z.string(), answer: optionLetterSchema(['A', 'B', 'C', 'D']) }), {
      answer: 'answer',
      reasoning: [],
    });
    expect(await run('json_schema', schema, 'answer', { mbe_137: text('{"reasoning": "so the answer is C.", "answer": "B"}') }, join(dir, 'none'), 1)).toEqual([
      ['mbe_137', 'B', undefined],
    ]);
  });
});

/**
 * A 1-item run whose config.json then records `edit`'s textOtherAnswerReading (as an older lexcase wrote it), resumed to
 * 2 items at warn level: its results and what the resume wrote to stderr.
 */
async function resumeUnder(name: string, edit: (config: Record<string, unknown>) => void) {
  const runDir = join(dir, name);
  const reply = { mbe_137: text('{"reasoning": "r", "answer": "B"}'), mbe_581: text('{"reasoning": "so the answer is C.", "answer": "B"}') };
  await run('json_schema', letterSchema, 'answer', reply, runDir, 1);
  const file = join(runDir, 'config.json');
  const old = JSON.parse(readFileSync(file, 'utf8'));
  expect(old.config.textOtherAnswerReading).toBe(TEXT_OTHER_ANSWER_READING);
  edit(old.config);
  writeFileSync(file, JSON.stringify(old));
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    stderr += String(s);
    return true;
  });
  setLogLevel('warn');
  try {
    const rows = await run('json_schema', letterSchema, 'answer', reply, runDir, 2);
    return { runDir, rows, stderr: () => stderr, config: () => JSON.parse(readFileSync(file, 'utf8')) };
  } finally {
    spy.mockRestore();
  }
}

/** What a resume under another reading records: the reading now, and the resume that did not check it. */
const RESUMED = { config: { textOtherAnswerReading: TEXT_OTHER_ANSWER_READING }, resumes: [{ unchecked: ['textOtherAnswerReading'] }] };
const ROWS = [
  ['mbe_137', 'B', undefined],
  ['mbe_581', 'B', 1],
];

describe('textOtherAnswerReading', () => {
  it('is recorded; a run dir an older lexcase wrote (none recorded) resumes with a warning naming it, and report.md says its earlier items were not counted so', async () => {
    const r = await resumeUnder('old', (config) => delete config.textOtherAnswerReading);
    expect(r.rows).toEqual(ROWS);
    expect(r.stderr()).toMatch(/does not record textOtherAnswerReading \(what tokens\.textOtherAnswer counts/);
    expect(r.config()).toMatchObject(RESUMED);
    const t = await tokensSection(await readRun(r.runDir), {} as never);
    expect(t?.json).toMatchObject({ textOtherAnswer: 1, textOtherAnswerUncountedItems: 1 });
    // the older lexcase may have counted its items by a reading of its own: not counted by this one, not "not counted"
    expect(t?.markdown).toMatch(
      /the 1 item run before the resume of \d{4}-\d{2}-\d{2} \(by an older lexcase\) was not counted by this reading \(the older lexcase counted by its own reading, or not at all\)/,
    );
  });

  // before (2026-12-02, seventh change): the first reply was not counted, the second was
  it('a reasoning naming another answer after a phrase set off before "is" counts; another party\'s holding does not', async () => {
    const reply = {
      mbe_137: text('{"reasoning": "The answer, in my view, is C.", "answer": "B"}'),
      mbe_581: text('{"reasoning": "The court held that the answer is C, but the deed was never delivered.", "answer": "B"}'),
    };
    expect(await run('json_schema', letterSchema, 'answer', reply, join(dir, 'interjection'), 2)).toEqual([
      ['mbe_137', 'B', 1],
      ['mbe_581', 'B', undefined],
    ]);
  });

  it("a run dir that records the reading of before 2026-12-02's seventh change resumes with a warning that it records an older one", async () => {
    const runDir = join(dir, 'older-interjection');
    const reply = { mbe_137: text('{"reasoning": "r", "answer": "B"}'), mbe_581: text('{"reasoning": "The answer, in my view, is C.", "answer": "B"}') };
    await run('json_schema', letterSchema, 'answer', reply, runDir, 1);
    const file = join(runDir, 'config.json');
    const old = JSON.parse(readFileSync(file, 'utf8'));
    old.config.textOtherAnswerReading =
      'an option letter or Yes/No label named as the answer (or in a sentence "Option C is the correct answer.") beside another read in the answer field the schema declares: in a forced call\'s text, a reasoning field the schema declares, or the prose around a JSON object (a schema declaring none: answer, vote, verdict, decision beside reasoning, rationale, explanation, justification); never one under a condition ("if the answer is B, …", "If, as the buyer argues, the answer is B, …", "the answer is B only if …", nor one another party is reported to give ("The seller argues that the answer is B")';
    writeFileSync(file, JSON.stringify(old));
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
      stderr += String(s);
      return true;
    });
    setLogLevel('warn');
    try {
      expect(await run('json_schema', letterSchema, 'answer', reply, runDir, 2)).toEqual([
        ['mbe_137', 'B', undefined],
        ['mbe_581', 'B', 1],
      ]);
    } finally {
      spy.mockRestore();
    }
    expect(stderr).toMatch(/records an older textOtherAnswerReading \(what tokens\.textOtherAnswer counts .*until the seventh/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ config: { textOtherAnswerReading: TEXT_OTHER_ANSWER_READING } });
  });

  it('a run dir that records the reading of before the declared fields resumes with a warning that it records an older one', async () => {
    // what a lexcase that read the name lists only, and named a letter under a condition cut by a set-off clause, recorded
    const older =
      'an option letter or Yes/No label named as the answer (or in a sentence "Option C is the correct answer.") beside another read: in a forced call\'s text, a reasoning field, or the prose around a JSON object; never one under a condition ("if the answer is B, …", "the answer is B only if …")';
    const r = await resumeUnder('older', (config) => {
      config.textOtherAnswerReading = older;
    });
    expect(r.rows).toEqual(ROWS);
    expect(r.stderr()).toMatch(/records an older textOtherAnswerReading \(what tokens\.textOtherAnswer counts .*whatever the schema declared/);
    expect(r.config()).toMatchObject(RESUMED);
  });
});
