/**
 * A proxy or router that answers with another model than the one asked (LiteLLM/OpenRouter
 * fallbacks, a gateway's routing): config.json and report.md said "model: X" while Y answered, and
 * Y was only in llm/<item>.jsonl. Now each results.jsonl line counts the replies that named another
 * model (`replyModels`), report.md's Run section says which and of how many calls, and the run ends
 * with a warning. Driven through the factory's real client against a scripted server on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { log } from '../core/log.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { readRun } from './report/read-run.js';
import { summarySection } from './report/sections/summary.js';
import { readResults } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import { answerOneLetter, ONE_LETTER_ITEMS } from './test-support/one-letter-system.js';

const ITEMS = ONE_LETTER_ITEMS;
const answer = answerOneLetter;
/** The router sends mbe_581 and mbe_222 to a smaller model; mbe_137 is answered by the model asked. */
const routes = (r: RecordedRequest) => ({
  content: 'C',
  ...(JSON.stringify(r.body.messages).includes('[mbe_137]') ? {} : { replyModel: 'llama-3.1-8b-instruct' }),
});

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reply-models-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const run = async (runDir: string, url: string) => {
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: url, model: 'llama-3.1-70b-instruct', cacheDir: false, maxRetries: 0 }));
  return runExperiment({
    runDir,
    system: answer,
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'baseline', model: { model: 'llama-3.1-70b-instruct' } },
    seed: 1,
  });
};

describe('replies that name a model other than the one asked', () => {
  it('are counted per item, said in report.md beside the model asked, and warned about at the end (before: only in llm/<item>.jsonl)', async () => {
    srv = await startScriptedServer(routes);
    const warn = vi.spyOn(log, 'warn');
    const runDir = join(dir, 'run');
    await run(runDir, srv.url);
    const records = (await readResults(runDir)).records;
    expect(records.map((r) => [r.id, r.replyModels])).toEqual([
      ['mbe_137', undefined],
      ['mbe_581', { 'llama-3.1-8b-instruct': 1 }],
      ['mbe_222', { 'llama-3.1-8b-instruct': 1 }],
    ]);
    const summary = (await summarySection(await readRun(runDir), {} as never))!;
    expect(summary.markdown).toContain('- **replies named another model**: llama-3.1-8b-instruct (2 of 3 LLM calls)');
    expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(
      /replies named a model other than the one asked \(llama-3\.1-70b-instruct\): llama-3\.1-8b-instruct ×2/,
    );
  });

  it('a server that names the model asked adds nothing', async () => {
    srv = await startScriptedServer(() => ({ content: 'C' }));
    const runDir = join(dir, 'run');
    await run(runDir, srv.url);
    expect((await readResults(runDir)).records.every((r) => r.replyModels === undefined)).toBe(true);
    expect((await summarySection(await readRun(runDir), {} as never))!.markdown).not.toContain('another model');
  });
});
