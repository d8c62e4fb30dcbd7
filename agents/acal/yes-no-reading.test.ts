/**
 * ACAL's Yes/No replies are read as option letters are (agents/common/yes-no.ts; audit: "yes" was
 * retried, then the item failed, while "b" / "B." were taken as letters). The SP baseline over
 * LegalBench hearsay with the real client against a scripted server: "yes", "No.", "(YES)", "no!"
 * are the labels; "Yes/No", "yes or no" and "maybe" name none and fail the item after the repair.
 * The judge's decision reads the same way. A run dir an older lexcase started (no `yesNoReading`
 * in config.json) resumes with a warning naming it, and records it from then on.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { yesNoOf } from '../common/yes-no.js';
import { runAcal } from './experiment.js';
import { judgeSchema } from './llm/judge.js';

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'acal-yes-no-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await srv?.close();
  srv = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The items' answers in order of their case text's first request (a repair asks again with the same case). */
const REPLIES = ['yes', 'No.', '(YES)', 'no!', 'Yes/No', 'yes or no', 'maybe'];
function answering(replies: string[]) {
  const cases: string[] = [];
  return (req: RecordedRequest) => {
    const user = (req.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content; // a repair's own message comes after it
    const c = [...user.matchAll(/\nCase: (.*)/g)].pop()![1];
    if (!cases.includes(c)) cases.push(c);
    return { content: JSON.stringify({ answer: replies[cases.indexOf(c)] ?? 'No' }) };
  };
}

const run = (limit: number) =>
  runAcal({
    task: 'hearsay',
    runDir: join(dir, 'run'),
    llm: createChatModel(llmConfigSchema.parse({ baseUrl: srv!.url, model: 'm', cacheDir: false, maxRetries: 0, timeoutMs: 5000 })),
    system: 'sp',
    limit,
    iterations: 100,
  });

describe("ACAL's Yes/No replies", () => {
  it('"yes", "No.", "(YES)", "no!" are the labels; "Yes/No", "yes or no", "maybe" fail their items', async () => {
    srv = await startScriptedServer(answering(REPLIES));
    const r = await run(7);
    expect(r.results.map((x) => x.prediction)).toEqual(['Yes', 'No', 'Yes', 'No', null, null, null]);
    for (const x of r.results.slice(4)) expect(x.error).toMatch(/LLM_OUTPUT_INVALID: .*field "answer": Invalid option: expected one of "Yes"\|"No"/);
    // the judge's decision is read the same way
    expect(judgeSchema.parse({ reasoning: 'r', decision: 'no.' }).decision).toBe('No');
    expect(judgeSchema.safeParse({ reasoning: 'r', decision: 'Yes or No' }).success).toBe(false);
    expect(['YES', 'Yes:', ' no ', 'Yes, because', 'Yes. No.', 'yess', ''].map(yesNoOf)).toEqual([
      'Yes',
      'Yes',
      'No',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('a run dir an older lexcase started (no yesNoReading) resumes with a warning naming it, and records it from then on', async () => {
    srv = await startScriptedServer(answering(['No', 'Yes', 'yes']));
    await run(2);
    const configFile = join(dir, 'run', 'config.json');
    const old = JSON.parse(readFileSync(configFile, 'utf8'));
    expect(old.config.yesNoReading).toBeTruthy();
    delete old.config.yesNoReading;
    writeFileSync(configFile, JSON.stringify(old));
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
    const r = await run(3);
    expect(stderr).toMatch(/does not record yesNoReading \(how a Yes\/No reply is read: an older lexcase took only "Yes" and "No" exactly/);
    expect(r.results.map((x) => x.prediction)).toEqual(['No', 'Yes', 'Yes']);
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toMatchObject({
      config: { yesNoReading: expect.stringContaining('"yes"') },
      resumes: [{ unchecked: ['yesNoReading'] }],
    });
  });
});
