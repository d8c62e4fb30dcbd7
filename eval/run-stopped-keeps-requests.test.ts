/**
 * A run that stops before it records an item puts its run dir back as it found it (run-start-undo.ts),
 * but for the requests its items sent: their journal (under-way/) stays, and the next run of the dir
 * records them in config.json `interrupts`, so report.md counts every request the endpoint received.
 *
 * The stop: two items at once, the first's request held by the server (sent, never answered), the
 * second's context failing (a setup error: its index gone) once the server holds that request.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { setLogLevel } from '../core/log.js';
import { startScriptedServer, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { readConfig, readResults } from './run-dir.js';
import type { RunConfigFile } from './run-config-file.js';
import { runInterrupts } from './run-counts.js';
import { contextFrom, runExperiment, type RunExperimentOptions } from './runner.js';
import { makeRunDir, noteRunDir, undoRunStart } from './run-start-undo.js';
import { dropSentJournals, killedAttempts, noteSentRequest } from './sent-journal.js';
import { answerOneLetter, ONE_LETTER_ITEMS, type OneLetterItem } from './test-support/one-letter-system.js';

let dir: string;
let srv: ScriptedServer;
/** Resolves when the server holds the first item's request (its journal line written: the request was sent). */
let held: Promise<void>;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-run-stopped-'));
  setLogLevel('silent');
  let reached!: () => void;
  held = new Promise((r) => (reached = r));
  let first = true;
  srv = await startScriptedServer(
    () => {
      if (!first) return { content: 'C' };
      first = false;
      reached();
      return { hang: true };
    },
    { models: false },
  );
});
afterEach(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
  setLogLevel('info');
});

/** The chat requests the server received (the runner's per-item GET /models, a 404 here, is no request for an answer). */
const chats = () => srv.requests.filter((r) => /\/chat\/completions$/.test(r.path));
const model = (): BaseChatModel => createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', temperature: 0, cacheDir: false, maxRetries: 0 }));
const run = (runDir: string, llm: BaseChatModel, makeContext: RunExperimentOptions<OneLetterItem>['makeContext'] = contextFrom({ llm })) =>
  runExperiment({
    runDir,
    system: answerOneLetter,
    items: ONE_LETTER_ITEMS.slice(0, 2),
    gold: (q) => q.answer,
    makeContext,
    config: { system: 'my-one-letter' },
    seed: 13,
    concurrency: 2,
  });

/** The first item's context as given; the second's fails once the first item's request is at the server. */
const secondFails = (llm: BaseChatModel): RunExperimentOptions<OneLetterItem>['makeContext'] => {
  const ctx = contextFrom({ llm });
  return async (item, info) => {
    if (item.id === ONE_LETTER_ITEMS[0].id) return ctx(item, info);
    await held;
    throw new Error('index gone');
  };
};

it('a new run stopped before its first record keeps only the journal of the requests it sent; the next run records them', async () => {
  const runDir = join(dir, 'run');
  const llm = model();
  await expect(run(runDir, llm, secondFails(llm))).rejects.toThrow('index gone');
  expect(chats()).toHaveLength(1);
  // before: the run dir removed whole
  expect(readdirSync(runDir, { recursive: true, encoding: 'utf8' }).sort()).toEqual(['under-way', 'under-way/mbe_137.sent']);

  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    stderr += String(s);
    return true;
  });
  setLogLevel('warn');
  let r: Awaited<ReturnType<typeof run>>;
  try {
    r = await run(runDir, llm);
  } finally {
    spy.mockRestore();
    setLogLevel('silent');
  }
  expect(r.ran).toBe(2);
  // a new run, not a resume, takes the journal: the warning says the item is run again, naming no resume
  expect(stderr).toMatch(/1 request sent by 1 item under way at an interrupt; it is in no results\.jsonl line \(the item is run again now\)/);
  expect(stderr).not.toMatch(/this resume/);
  const cfg = (await readConfig(runDir)) as unknown as RunConfigFile;
  expect(cfg.interrupts).toMatchObject([{ signal: 'killed', items: 1, requests: 1 }]);
  const calls = (await readResults(runDir)).records.reduce((n, x) => n + (x.tokens?.calls ?? 0), 0);
  expect(calls + runInterrupts(cfg).requests).toBe(chats().length); // before: 2 of 3
  expect(existsSync(join(runDir, 'under-way'))).toBe(false);
});

it('a resume stopped before its first record keeps the requests it sent beside those of the killed attempt its journal held', async () => {
  const runDir = join(dir, 'run');
  mkdirSync(runDir);
  writeFileSync(join(runDir, 'config.json'), '{"seed":13,"config":{}}\n');
  noteSentRequest(runDir, 'mbe_137'); // the killed attempt's request
  const killed = readFileSync(join(runDir, 'under-way', 'mbe_137.sent'), 'utf8');
  const before = await makeRunDir(runDir);
  noteRunDir(before);
  // the resume: config.json records the killed attempt and its journal goes (killed-attempt.ts), then its items send 2 requests
  writeFileSync(join(runDir, 'config.json'), '{"seed":13,"config":{},"interrupts":[{"signal":"killed"}]}\n');
  dropSentJournals(runDir);
  noteSentRequest(runDir, 'mbe_137');
  noteSentRequest(runDir, 'mbe_581');
  const resumed = readFileSync(join(runDir, 'under-way', 'mbe_137.sent'), 'utf8');
  await undoRunStart(before);
  expect(readFileSync(join(runDir, 'config.json'), 'utf8')).toBe('{"seed":13,"config":{}}\n');
  // before: the killed attempt's line alone, the resume's 2 requests gone
  expect(readFileSync(join(runDir, 'under-way', 'mbe_137.sent'), 'utf8')).toBe(killed + resumed);
  expect(killedAttempts(runDir)).toMatchObject({ items: 2, requests: 3 });
});
