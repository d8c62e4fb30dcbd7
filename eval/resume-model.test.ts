/**
 * A resume of a run whose system is your own, with a config that does not record the model
 * (docs/runner.md's runExperiment example records system, dataset, split, k), under another chat
 * model is refused naming the setting, before anything is written — as a lexcase system's is through
 * config.json's `model`. Before, the resume ran its items with the new model and overwrote
 * llm/model.json with it, so the run read as made wholly by the new model.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { setLogLevel } from '../core/log.js';
import { startScriptedServer, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { resultsPath } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import { answerOneLetter, ONE_LETTER_ITEMS } from './test-support/one-letter-system.js';

let dir: string;
let srv: ScriptedServer;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-resume-model-'));
  setLogLevel('silent');
});
afterEach(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
  setLogLevel('info');
});

const model = (url: string, name: string, temperature = 0) =>
  createChatModel(llmConfigSchema.parse({ baseUrl: url, model: name, temperature, cacheDir: false, maxRetries: 0 }));
const run = (runDir: string, llm: BaseChatModel, items = ONE_LETTER_ITEMS) =>
  runExperiment({
    runDir,
    system: answerOneLetter,
    items,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'my-one-letter', dataset: 'barexam' },
    seed: 13,
  });

describe('resuming a run of your own system under another chat model', () => {
  it('is refused naming the model, and leaves the run dir as it was', async () => {
    srv = await startScriptedServer(() => ({ content: 'C' }), { models: false });
    const runDir = join(dir, 'run');
    await run(runDir, model(srv.url, 'small-model'), ONE_LETTER_ITEMS.slice(0, 2));
    const results = readFileSync(resultsPath(runDir), 'utf8');
    const settings = readFileSync(join(runDir, 'llm', 'model.json'), 'utf8');
    await expect(run(runDir, model(srv.url, 'large-model'))).rejects.toThrow(
      /was started with another chat model \(model "small-model" recorded in .*model\.json, "large-model" now\)/,
    );
    await expect(run(runDir, model(srv.url, 'small-model', 0.7))).rejects.toThrow(/another chat model \(temperature 0 recorded in .*, 0\.7 now\)/);
    expect(readFileSync(resultsPath(runDir), 'utf8')).toBe(results);
    expect(readFileSync(join(runDir, 'llm', 'model.json'), 'utf8')).toBe(settings);
    // the same model resumes: the third item runs
    const r = await run(runDir, model(srv.url, 'small-model'));
    expect({ ran: r.ran, skipped: r.skipped }).toEqual({ ran: 1, skipped: 2 });
  });
});
