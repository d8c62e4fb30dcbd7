/**
 * An LLM run records how its replies are read (`replyReading`, core/llm/reply-reading.ts), so a resume
 * by a lexcase that reads them otherwise warns. The runner counted a run as an LLM run only when its
 * config named a `model`: a library call given `llm` without the `model` record — runMadExperiment,
 * runAcal without `extraConfig.model`, a system of your own through `contextFrom({ llm })` — recorded
 * none, and a resume of its run dir was never warned of a reading rule change. Now a run whose system
 * is given a model records it, whatever its config names. The real client against a scripted server.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { REPLY_READING, REPLY_READING_BEFORE_HARMONY } from '../../core/llm/reply-reading.js';
import { closeSparseIndexes } from '../../retrieval/open-sparse.js';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import { scriptedAll } from '../../tests/support/scripted-all.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runAcal } from '../acal/experiment.js';
import { runMadExperiment } from '../mad/experiment.js';

let dir: string;
let index: string;
let srv: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reply-reading-library-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: 2 });
  srv = await startScriptedServer(scriptedAll());
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

describe('a library run given a model and no `model` record records replyReading', () => {
  it('runAcal({ llm }) without extraConfig: recorded; a resume of a run dir recording the older reading warns and records the new one', async () => {
    const runDir = join(dir, 'acal-sp');
    const run = (limit: number) => runAcal({ task: 'hearsay', system: 'sp', runDir, llm: llm(), limit, iterations: 200 });
    await run(1);
    const old = recorded(runDir);
    expect(old.config).not.toHaveProperty('model');
    expect(old.config.replyReading).toBe(REPLY_READING);
    old.config.replyReading = REPLY_READING_BEFORE_HARMONY;
    writeFileSync(configFile(runDir), JSON.stringify(old));
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
      stderr += String(s);
      return true;
    });
    const r = await run(2);
    expect(r).toMatchObject({ ran: 1, skipped: 1, failed: 0 });
    expect(stderr).toMatch(/records an older replyReading \(how replies are read/);
    expect(recorded(runDir)).toMatchObject({ config: { replyReading: REPLY_READING }, resumes: [{ unchecked: ['replyReading'] }] });
  }, 120_000);

  it('runMadExperiment({ llm }) without `model`: recorded', async () => {
    const runDir = join(dir, 'mad-single');
    const r = await runMadExperiment({ system: 'single-rag', llm: llm(), dataset: 'barexam', split: 'val', index, limit: 1, runDir });
    expect(r.failed).toBe(0);
    expect(recorded(runDir).config).toMatchObject({ model: null, replyReading: REPLY_READING });
  }, 120_000);

  it('runExperiment with contextFrom({ llm }) and a config naming no model (a system of your own): recorded; contextFrom() without one: none', async () => {
    const items = [{ id: 'q1', answer: 'A' }];
    const system = async () => ({ prediction: 'A', trace: {} });
    const base = { system, items, gold: (q: { answer: string }) => q.answer, config: { system: 'mine' }, seed: 13 };
    await runExperiment({ ...base, runDir: join(dir, 'own-llm'), makeContext: contextFrom({ llm: llm() }) });
    expect(recorded(join(dir, 'own-llm')).config.replyReading).toBe(REPLY_READING);
    await runExperiment({ ...base, runDir: join(dir, 'own-none'), makeContext: contextFrom() });
    expect(recorded(join(dir, 'own-none')).config).not.toHaveProperty('replyReading');
  }, 60_000);
});
