/**
 * A replay serves an item from its llm/<id>.jsonl; the file must be the one written with the item's
 * results.jsonl line. The line's counts (refused, cut off, sent again) are the same for another
 * attempt whose replies differ, so each line records the digest of its exchanges (`exchangesSha256`,
 * eval/llm-exchanges.ts exchangesDigest) and a replay compares it. Two ways a file of the same counts
 * lands beside a line, made on disk here: a retried item (its first attempt's reply was no letter, the
 * item failed; the resume's retry answered) killed between its line and its exchanges, which leaves
 * the failed attempt's file; and a file copied from another run dir of the same flags whose server
 * answered otherwise. Before, both replays resolved with the other attempt's answers in place of the
 * recorded line's. A recording whose lines record no digest (an older lexcase's) replays with the
 * count check and says so once: stderr and report.md. Recorded through the factory's real client
 * against a scripted server on 127.0.0.1.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { log } from '../core/log.js';
import { startScriptedServer, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { exchangesPath } from './llm-exchanges.js';
import { writeReport } from './report/index.js';
import { readConfig, readResults, resultsPath } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import { ONE_LETTER_ITEMS, type OneLetterItem } from './test-support/one-letter-system.js';
import type { AgentSystem } from './types.js';

let dir: string;
let srv: ScriptedServer;
/** The reply per item id (default: its right letter). */
const replies = new Map<string, string>();

/** One request per item; a reply that is not one letter fails the item. */
const letterOrFail: AgentSystem<OneLetterItem> = async (item, ctx) => {
  const reply = String((await ctx.llm!.invoke([new HumanMessage(`[${item.id}] Answer with one letter.`)], { signal: ctx.signal })).content).trim();
  if (!/^[A-D]$/.test(reply)) throw new Error(`no option letter in the reply: ${reply}`);
  return { prediction: reply, trace: {} };
};

const cfg = (url: string) => llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 0 });
const run = (runDir: string, replayFrom?: string) =>
  runExperiment({
    runDir,
    system: letterOrFail,
    items: ONE_LETTER_ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm: replayFrom ? createChatModel(cfg('http://127.0.0.1:9/v1'), { replayFrom }) : createChatModel(cfg(srv.url)) }),
    config: { system: 'baseline' },
    lexcaseSystem: 'baseline',
    seed: 1,
  });
const outcomes = async (runDir: string) => (await readResults(runDir)).records.map((r) => `${r.id} ${r.prediction} ${r.correct}`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-replay-digest-'));
  srv = await startScriptedServer((req) => {
    const item = ONE_LETTER_ITEMS.find((q) => JSON.stringify(req.body.messages).includes(q.id))!;
    return { content: replies.get(item.id) ?? item.answer };
  });
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

it("a replay refuses a retried item's earlier attempt's exchanges (same counts as its line), naming the item, the file and both digests", async () => {
  const rec = join(dir, 'retried');
  replies.set('mbe_581', 'I cannot tell');
  await run(rec);
  const failedAttempt = join(dir, 'mbe_581.failed.jsonl');
  copyFileSync(exchangesPath(rec, 'mbe_581'), failedAttempt);
  replies.clear();
  expect((await run(rec)).retried).toBe(1);
  expect((await outcomes(rec)).sort()).toEqual(['mbe_137 C true', 'mbe_222 C true', 'mbe_581 B true']);
  const line = (await readResults(rec)).records.find((r) => r.id === 'mbe_581')!;
  expect(line.exchangesSha256).toMatch(/^[0-9a-f]{64}$/);
  // intact, it replays as recorded, byte for byte
  await run(join(dir, 'retried-ok'), rec);
  expect(readFileSync(resultsPath(join(dir, 'retried-ok')), 'utf8')).toBe(readFileSync(resultsPath(rec), 'utf8'));
  // the kill between the retry's line and its exchanges: the failed attempt's file stays (1 call, 0 refused: the line's counts)
  copyFileSync(failedAttempt, exchangesPath(rec, 'mbe_581'));
  // before: resolved, mbe_581 failed where the recording has it correct
  const refused = run(join(dir, 'retried-bad'), rec);
  await expect(refused).rejects.toMatchObject({ code: 'LLM_RECORDING_ALTERED' });
  const message = String(((await refused.catch((e: unknown) => e)) as Error).message);
  expect(message).toContain(`${exchangesPath(rec, 'mbe_581')}: item "mbe_581": these exchanges are not those its results.jsonl line was recorded with`);
  expect(message).toContain(`the line records exchangesSha256 ${line.exchangesSha256}, the file's exchanges have `);
  expect(message).toMatch(/the file's exchanges have [0-9a-f]{64}\)/);
  // refused before any item is replayed: the replay dir records none
  expect(existsSync(resultsPath(join(dir, 'retried-bad')))).toBe(false);
});

it("a replay refuses an item's file copied from another run dir of the same flags whose server answered otherwise", async () => {
  const rec = join(dir, 'a');
  const other = join(dir, 'b');
  await run(rec);
  replies.set('mbe_222', 'A');
  await run(other);
  replies.clear();
  expect(await outcomes(other)).toEqual(['mbe_137 C true', 'mbe_581 B true', 'mbe_222 A false']);
  copyFileSync(exchangesPath(other, 'mbe_222'), exchangesPath(rec, 'mbe_222'));
  // before: resolved with 2 of 3 correct where the recording has 3 of 3
  await expect(run(join(dir, 'a-bad'), rec)).rejects.toMatchObject({
    code: 'LLM_RECORDING_ALTERED',
    message: expect.stringContaining('item "mbe_222": these exchanges are not those its results.jsonl line was recorded with'),
  });
});

it('a recording whose lines record no digest (an older lexcase) replays with the count check and says so once, on stderr and in report.md', async () => {
  const rec = join(dir, 'old');
  await run(rec);
  const file = resultsPath(rec);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  writeFileSync(file, `${lines.map((l) => JSON.stringify({ ...JSON.parse(l), exchangesSha256: undefined })).join('\n')}\n`);
  const warn = vi.spyOn(log, 'warn');
  try {
    const replay = join(dir, 'old-replay');
    const r = await run(replay, rec);
    expect(r.results.map((x) => x.correct)).toEqual([true, true, true]);
    const said = warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('records no digest'));
    expect(said).toEqual([
      `the recording ${rec} records no digest of the LLM exchanges for 3 of 3 items (mbe_137, mbe_581, mbe_222; results.jsonl "exchangesSha256", written by lexcase since 2026-12-03): their llm/ files are checked against the lines' request counts only, so another attempt's exchanges with the same counts would replay unnoticed`,
    ]);
    expect(((await readConfig(replay)) as { replayWarnings?: string[] }).replayWarnings).toEqual(said);
    await writeReport(replay);
    expect(readFileSync(join(replay, 'report.md'), 'utf8')).toContain(`- **replay not fully checked**: ${said[0]}`);
  } finally {
    warn.mockRestore();
  }
});
