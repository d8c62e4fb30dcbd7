/**
 * A server whose `system_fingerprint` changes during a run (OpenAI's backend configuration changed
 * under it): before, the change was only in llm/<item>.jsonl and report.md said nothing. Now each
 * results.jsonl line counts its replies by fingerprint (`replyFingerprints`), report.md's Run
 * section says when the run's replies carried more than one (report.json: `systemFingerprints`), and
 * the run ends with a warning. Driven through the factory's real client against a scripted server on 127.0.0.1.
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

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reply-fingerprints-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const run = async (runDir: string, url: string) => {
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: url, model: 'gpt-4o', cacheDir: false, maxRetries: 0 }));
  return runExperiment({
    runDir,
    system: answerOneLetter,
    items: ONE_LETTER_ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'baseline', model: { model: 'gpt-4o' } },
    seed: 1,
  });
};

describe('replies whose system_fingerprint changed during the run', () => {
  it('are counted per item, said in report.md and report.json, and warned about at the end (before: only in llm/<item>.jsonl)', async () => {
    // the backend is reconfigured after the first request
    srv = await startScriptedServer((r: RecordedRequest) => ({ content: 'C', systemFingerprint: r.index === 0 ? 'fp_44709d6fcb' : 'fp_b28b39ffa8' }));
    const warn = vi.spyOn(log, 'warn');
    const runDir = join(dir, 'run');
    await run(runDir, srv.url);
    const records = (await readResults(runDir)).records;
    expect(records.map((r) => r.replyFingerprints)).toEqual([{ fp_44709d6fcb: 1 }, { fp_b28b39ffa8: 1 }, { fp_b28b39ffa8: 1 }]);
    const summary = (await summarySection(await readRun(runDir), {} as never))!;
    expect(summary.markdown).toContain(
      "- **replies carried 2 system_fingerprints**: fp_44709d6fcb (1 of 3 LLM calls), fp_b28b39ffa8 (2 of 3 LLM calls) — the endpoint's backend configuration changed during the run",
    );
    expect(summary.json).toMatchObject({ systemFingerprints: { fp_44709d6fcb: 1, fp_b28b39ffa8: 2 } });
    expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).toMatch(/replies carried 2 system_fingerprints: fp_44709d6fcb ×1, fp_b28b39ffa8 ×2/);
  });

  it('one fingerprint throughout is recorded, and report.md says nothing of it', async () => {
    srv = await startScriptedServer(() => ({ content: 'C', systemFingerprint: 'fp_44709d6fcb' }));
    const warn = vi.spyOn(log, 'warn');
    const runDir = join(dir, 'run');
    await run(runDir, srv.url);
    expect((await readResults(runDir)).records.map((r) => r.replyFingerprints)).toEqual([{ fp_44709d6fcb: 1 }, { fp_44709d6fcb: 1 }, { fp_44709d6fcb: 1 }]);
    const summary = (await summarySection(await readRun(runDir), {} as never))!;
    expect(summary.markdown).not.toContain('system_fingerprint');
    expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).not.toContain('system_fingerprint');
  });
});
