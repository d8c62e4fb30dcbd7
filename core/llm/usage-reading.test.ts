/**
 * An LLM run records how its replies' token usage is read (`usageReading`, core/llm/usage-reading.ts).
 * A reply whose `total_tokens` is above prompt + completion (a thinking model's reasoning in the total
 * alone, as gateways in front of Gemini send it: 20 + 198, total 623) now counts 623; an older lexcase
 * counted 218. Before, a run dir an older lexcase wrote held the smaller totals and a resume added items
 * counted the new way, the run's token total mixing the two rules with no word. Now the resume warns,
 * naming the rule, and lists it unchecked; so does one over a run dir recording the older reading of before
 * 2026-12-05 (a total below prompt + completion taken as the total, input_tokens/output_tokens read as a total
 * alone). The real client against a scripted server.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import { completionWithUsage, startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema } from '../config.js';
import { RECORDED_READINGS } from '../recorded-readings.js';
import { createChatModel } from './factory.js';
import { USAGE_READING } from './usage-reading.js';

let dir: string;
let srv: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'usage-reading-'));
  srv = await startScriptedServer((_req, i) => ({ raw: completionWithUsage(i + 1, { prompt_tokens: 20, completion_tokens: 198, total_tokens: 623 }) }));
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const configFile = (runDir: string) => join(runDir, 'config.json');
const recorded = (runDir: string) => JSON.parse(readFileSync(configFile(runDir), 'utf8'));
const items = [{ id: 'mbe_137' }, { id: 'mbe_581' }];

/** A run of a system that asks the model once per item; `limit` items of two; what it printed on stderr. */
async function run(runDir: string, limit: number): Promise<string> {
  let stderr = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    stderr += String(s);
    return true;
  });
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'gemini-2.5-flash', cacheDir: false, maxRetries: 0, timeoutMs: 10_000 }));
  await runExperiment({
    runDir,
    system: async (_item, ctx) => {
      await ctx.llm!.invoke([new HumanMessage('Which option?')]);
      return { prediction: 'A', trace: {} };
    },
    items: items.slice(0, limit),
    gold: () => 'A',
    makeContext: contextFrom({ llm }),
    config: { system: 'mine', limit },
    seed: 1,
  });
  vi.restoreAllMocks();
  return stderr;
}

describe('usageReading', () => {
  it('is recorded by an LLM run; a resume of a run dir an older lexcase wrote (none recorded) warns naming the rule and records it', async () => {
    const runDir = join(dir, 'old');
    await run(runDir, 1);
    const old = recorded(runDir);
    expect(old.config.usageReading).toBe(USAGE_READING);
    // as an older lexcase wrote it: no usageReading
    delete old.config.usageReading;
    writeFileSync(configFile(runDir), JSON.stringify(old));
    const stderr = await run(runDir, 2);
    expect(stderr).toMatch(/does not record usageReading \(how a reply's token usage is read: an older lexcase took prompt \+ completion for the total/);
    expect(recorded(runDir)).toMatchObject({ config: { usageReading: USAGE_READING }, resumes: [{ unchecked: ['usageReading'] }] });
  }, 60_000);

  it('a resume of a run dir that records the older reading (before 2026-12-05) warns "records an older usageReading" naming what changed', async () => {
    const runDir = join(dir, 'older');
    await run(runDir, 1);
    const old = recorded(runDir);
    // as the lexcase of 2026-12-02..05 wrote it: a total below prompt + completion taken as the total, input_tokens read as a total alone
    old.config.usageReading = RECORDED_READINGS.usageReading.older[0].value;
    writeFileSync(configFile(runDir), JSON.stringify(old));
    const stderr = await run(runDir, 2);
    expect(stderr).toMatch(
      /records an older usageReading \(how a reply's token usage is read: the lexcase that recorded it \(before 2026-12-05\) took a total_tokens below prompt \+ completion for the total/,
    );
    expect(stderr).toMatch(/input_tokens\/output_tokens as a total with no input\/output split/);
    expect(recorded(runDir)).toMatchObject({ config: { usageReading: USAGE_READING }, resumes: [{ unchecked: ['usageReading'] }] });
  }, 60_000);

  it('a resume of a run dir that records it says nothing of it', async () => {
    const runDir = join(dir, 'new');
    await run(runDir, 1);
    const stderr = await run(runDir, 2);
    expect(stderr).not.toMatch(/usageReading/);
    expect(recorded(runDir).resumes.at(-1)).not.toHaveProperty('unchecked');
  }, 60_000);
});
