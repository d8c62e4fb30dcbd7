/**
 * A resume that fails before it records an item leaves the run dir byte for byte as it found it, so
 * nothing an earlier attempt recorded is lost: a killed attempt's request journal (under-way/), a
 * cut-off last line of results.jsonl, config.json, llm/model.json. Before, only config.json was put
 * back: the journal had been taken (removed) and the line truncated, so the next resume recorded
 * neither the killed attempt's requests (config.json `interrupts`, report.md's count) nor the cut
 * (resumes[].cutTail).
 *
 * The killed attempt is written as the killed process writes it (noteSentRequest at each request sent);
 * the failures are a setup error (makeContext throws: an index gone) and a run of your own system under
 * another chat model (refused against llm/model.json once the first item's model is known).
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { deferPreflight } from '../core/llm/deferred-preflight.js';
import { createChatModel } from '../core/llm/factory.js';
import { setLogLevel } from '../core/log.js';
import { startScriptedServer, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { treeOf } from '../tests/support/tree-snapshot.js';
import { readConfig, resultsPath } from './run-dir.js';
import type { RunConfigFile } from './run-config-file.js';
import { contextFrom, runExperiment, type RunExperimentOptions } from './runner.js';
import { noteSentRequest } from './sent-journal.js';
import { answerOneLetter, ONE_LETTER_ITEMS, type OneLetterItem } from './test-support/one-letter-system.js';

let dir: string;
let srv: ScriptedServer;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-resume-failed-'));
  setLogLevel('silent');
  srv = await startScriptedServer(() => ({ content: 'C' }), { models: false });
});
afterEach(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
  setLogLevel('info');
});

const model = (name: string) => createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: name, temperature: 0, cacheDir: false, maxRetries: 0 }));
const run = (runDir: string, llm: BaseChatModel, makeContext: RunExperimentOptions<OneLetterItem>['makeContext'] = contextFrom({ llm })) =>
  runExperiment({
    runDir,
    system: answerOneLetter,
    items: ONE_LETTER_ITEMS,
    gold: (q) => q.answer,
    makeContext,
    config: { system: 'my-one-letter' },
    seed: 13,
  });

/** A run of 2 items, then an attempt killed with its third item's 2 requests sent, and its last line cut. */
async function killedRun(runDir: string): Promise<void> {
  await runExperiment({
    runDir,
    system: answerOneLetter,
    items: ONE_LETTER_ITEMS.slice(0, 2),
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm: model('small-model') }),
    config: { system: 'my-one-letter' },
    seed: 13,
  });
  noteSentRequest(runDir, ONE_LETTER_ITEMS[2].id);
  noteSentRequest(runDir, ONE_LETTER_ITEMS[2].id);
  appendFileSync(resultsPath(runDir), '{"id":"mbe_2'); // a write stopped midway
}

describe('a resume that fails before its first item', () => {
  it.each([
    ['a setup error', (runDir: string) => run(runDir, model('small-model'), () => Promise.reject(new Error('index gone')))],
    ['another chat model than llm/model.json records', (runDir: string) => run(runDir, model('large-model'))],
  ])('%s: the run dir as it was, and the next resume records the killed attempt and the cut line', async (_what, fail) => {
    const runDir = join(dir, 'run');
    await killedRun(runDir);
    const before = treeOf(runDir);
    await expect(fail(runDir)).rejects.toThrow();
    expect(treeOf(runDir)).toEqual(before); // before: under-way/ gone, results.jsonl's last line cut off

    const r = await run(runDir, model('small-model'));
    expect(r.ran).toBe(1);
    const cfg = (await readConfig(runDir)) as unknown as RunConfigFile;
    expect(cfg.interrupts).toMatchObject([{ signal: 'killed', items: 1, requests: 2 }]);
    expect(cfg.resumes).toHaveLength(1);
    expect(cfg.resumes?.[0]).toMatchObject({ cutTail: { bytes: 12 } });
  });

  it("the endpoint's deferred preflight (run <system>) is made before the resume writes anything: stopped there (Ctrl-C), it leaves the run dir as it was", async () => {
    const runDir = join(dir, 'run');
    await killedRun(runDir);
    const before = treeOf(runDir);
    let seen: Record<string, string> | undefined;
    const llm = deferPreflight(model('small-model'), async () => {
      seen ??= treeOf(runDir); // its first call (the command's check is made once: src/cli/llm-options.ts)
    });
    const r = await run(runDir, llm);
    expect(r.ran).toBe(1);
    // all but the lock the resume holds; before: config.json rewritten and the journal taken when the first item made the check
    const { 'run.lock': _lock, ...atCheck } = seen ?? {};
    expect(atCheck).toEqual(before);
  });
});
