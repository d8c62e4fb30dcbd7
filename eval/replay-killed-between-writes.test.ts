/**
 * A run killed between writing an item's results.jsonl line and putting its llm/<id>.jsonl in place
 * (eval/run-dir.ts ResultsWriter: the line, then the staged exchanges' rename) leaves the line of the
 * new attempt beside the exchanges of the earlier one (a retry of a failed item) or none. The state is
 * made on disk as that kill leaves it: a run whose item mbe_581 was refused (HTTP 400), resumed with
 * the retry answered, then its llm/mbe_581.jsonl put back as the failed attempt left it. Before, a
 * replay of it exited 0 with mbe_581 failed where the recording has it correct (2 of 3 correct
 * against 3 of 3), said only as "token counts … a lexcase that read usage otherwise". Now the
 * replay stops naming the file and the counts that differ. Recorded through the factory's real
 * client against a scripted server on 127.0.0.1.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { startScriptedServer, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { exchangesPath } from './llm-exchanges.js';
import { readResults } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import { answerOneLetter, ONE_LETTER_ITEMS } from './test-support/one-letter-system.js';

let dir: string;
let srv: ScriptedServer;
let refuse = true;

const cfg = (url: string) => llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 0 });
const run = (runDir: string, replayFrom?: string) =>
  runExperiment({
    runDir,
    system: answerOneLetter,
    items: ONE_LETTER_ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm: replayFrom ? createChatModel(cfg('http://127.0.0.1:9/v1'), { replayFrom }) : createChatModel(cfg(srv.url)) }),
    config: { system: 'baseline' },
    lexcaseSystem: 'baseline',
    seed: 1,
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-replay-killed-'));
  // each item's right letter; mbe_581 refused while `refuse`
  srv = await startScriptedServer((req) => {
    const text = JSON.stringify(req.body.messages);
    const item = ONE_LETTER_ITEMS.find((q) => text.includes(q.id))!;
    return item.id === 'mbe_581' && refuse ? { status: 400, error: 'refused' } : { content: item.answer };
  });
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

it("a replay of a run killed between an item's line and its exchanges stops naming the file, not a silent other outcome", async () => {
  const rec = join(dir, 'rec');
  await run(rec);
  const failedAttempt = join(dir, 'mbe_581.failed.jsonl');
  copyFileSync(exchangesPath(rec, 'mbe_581'), failedAttempt);
  refuse = false;
  const resumed = await run(rec);
  expect(resumed.retried).toBe(1);
  expect((await readResults(rec)).records.map((r) => r.correct)).toEqual([true, true, true]);
  // an intact recording replays as recorded
  const ok = await run(join(dir, 'ok'), rec);
  expect(ok.results.map((r) => r.correct)).toEqual([true, true, true]);
  // the kill: the retry's line is in results.jsonl, its exchanges were never put in place
  copyFileSync(failedAttempt, exchangesPath(rec, 'mbe_581'));
  // before: resolved, mbe_581 failed (correct false) where the recording has it correct
  await expect(run(join(dir, 'bad'), rec)).rejects.toMatchObject({
    code: 'LLM_RECORDING_ALTERED',
    message: expect.stringContaining(
      "mbe_581.jsonl:1: its requests are not those its results.jsonl line counts (refused 0 in the line, 1 in the file): another attempt's exchanges than the recorded line's",
    ),
  });
});
