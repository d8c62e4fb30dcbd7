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
import { llmConfigSchema, publicLlmConfig } from '../../core/config.js';
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
/** A resume that runs the second item, and what it printed on stderr. */
async function resumed(run: () => Promise<{ ran: number; skipped: number; failed: number }>): Promise<string> {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    stderr += String(s);
    return true;
  });
  const r = await run();
  expect(r).toMatchObject({ ran: 1, skipped: 1, failed: 0 });
  return stderr;
}

describe('a library run given a model and no `model` record records replyReading', () => {
  it('runAcal({ llm }) without extraConfig: recorded; a resume of a run dir recording the older reading warns and records the new one', async () => {
    const runDir = join(dir, 'acal-sp');
    const run = (limit: number) => runAcal({ task: 'hearsay', system: 'sp', runDir, llm: llm(), limit, iterations: 200 });
    await run(1);
    const old = recorded(runDir);
    expect(old.config.replyReading).toBe(REPLY_READING);
    old.config.replyReading = REPLY_READING_BEFORE_HARMONY;
    writeFileSync(configFile(runDir), JSON.stringify(old));
    const stderr = await resumed(() => run(2));
    expect(stderr).toMatch(/records an older replyReading \(how replies are read/);
    expect(recorded(runDir)).toMatchObject({ config: { replyReading: REPLY_READING }, resumes: [{ unchecked: ['replyReading'] }] });
  }, 120_000);

  it('runMadExperiment({ llm }) without `model`: recorded', async () => {
    const runDir = join(dir, 'mad-single');
    const r = await runMadExperiment({ system: 'single-rag', llm: llm(), dataset: 'barexam', split: 'val', index, limit: 1, runDir });
    expect(r.failed).toBe(0);
    expect(recorded(runDir).config).toMatchObject({ replyReading: REPLY_READING });
  }, 120_000);
});

/**
 * config.json's `model` of a library call given `llm` alone: the settings createChatModel made it with,
 * as the command records the ones it resolved (core/llm/model-record.ts). Before, MAD and CASE recorded
 * null and ACAL none: the run dir named no model, and a resume with another structured-output mode (or
 * endpoint) went on under the same config.
 */
describe('a library run given a factory model and no `model` record records its settings', () => {
  const cfg = () => llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', cacheDir: false, maxRetries: 0, timeoutMs: 10_000 });
  it("runMadExperiment and runAcal record publicLlmConfig of the model's config (the key masked); a resume with another structured-output mode is refused", async () => {
    const madDir = join(dir, 'mad-model');
    const mad = (c: ReturnType<typeof cfg>, limit: number) =>
      runMadExperiment({ system: 'single-rag', llm: createChatModel(c), dataset: 'barexam', split: 'val', index, limit, runDir: madDir });
    await mad({ ...cfg(), apiKey: 'sk-secret-123' }, 1);
    const model = recorded(madDir).config.model;
    expect(model).toEqual(JSON.parse(JSON.stringify(publicLlmConfig({ ...cfg(), apiKey: 'sk-secret-123' }))));
    expect(model).toMatchObject({ model: 'm', baseUrl: srv.url, apiKey: '***' });
    expect(readFileSync(configFile(madDir), 'utf8')).not.toContain('sk-secret-123');
    await expect(mad({ ...cfg(), structuredOutput: 'prompt' }, 2)).rejects.toThrow(
      /field "model" differs: model.structuredOutput "json_schema" recorded, "prompt" now/,
    );

    const acalDir = join(dir, 'acal-model');
    await runAcal({ task: 'hearsay', system: 'sp', runDir: acalDir, llm: createChatModel(cfg()), limit: 1, iterations: 200 });
    expect(recorded(acalDir).config.model).toMatchObject({ model: 'm', baseUrl: srv.url });
  }, 120_000);

  it('a run dir an older lexcase wrote for such a call (model null) resumes with a warning naming model, and records it from then on', async () => {
    const runDir = join(dir, 'mad-model-older');
    const run = (limit: number) =>
      runMadExperiment({ system: 'single-rag', llm: createChatModel(cfg()), dataset: 'barexam', split: 'val', index, limit, runDir });
    await run(1);
    const old = recorded(runDir);
    old.config.model = null; // what an older lexcase wrote
    writeFileSync(configFile(runDir), JSON.stringify(old));
    const stderr = await resumed(() => run(2));
    expect(stderr).toMatch(/does not record model \(the model a library call was given/);
    expect(recorded(runDir)).toMatchObject({ config: { model: { model: 'm' } }, resumes: [{ unchecked: ['model'] }] });
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
