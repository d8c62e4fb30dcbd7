/**
 * Replaying a recording whose results.jsonl an older lexcase counted: against a server that reports
 * only `total_tokens` it wrote `total` 0 and `unreported` (before the total-only reading), against a
 * content filter no `filtered`. The replay read the same replies as this lexcase reads them and
 * wrote other token counts than the recording's, and said nothing, though a replay is to reproduce
 * results.jsonl. Now the runner compares each item's replayed tokens with the recorded line and
 * warns, naming the items and fields. A recording this lexcase made replays with no warning.
 * Recorded through the factory's real client against a scripted server on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { log } from '../core/log.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { resultsPath } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import { answerOneLetter, ONE_LETTER_ITEMS } from './test-support/one-letter-system.js';

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-replay-tokens-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const cfg = (url: string) => llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 0 });
const run = (runDir: string, llm: BaseChatModel) =>
  runExperiment({
    runDir,
    system: answerOneLetter,
    items: ONE_LETTER_ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'baseline' },
    seed: 1,
  });
/** A proxy that reports only total_tokens, whose content filter stops the reply about mbe_222. */
const totalOnlyFiltered = (r: RecordedRequest) => ({
  content: 'C',
  rawUsage: { total_tokens: 116 },
  ...(JSON.stringify(r.body.messages).includes('[mbe_222]') ? { finishReason: 'content_filter' } : {}),
});
const warnings = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((c) => String(c[0])).join('\n');

describe('a replay whose token counts differ from the recording', () => {
  it('warns naming the items and fields when the recording was counted by an older lexcase (before: other counts, unchecked)', async () => {
    srv = await startScriptedServer(totalOnlyFiltered);
    const rec = join(dir, 'rec');
    await run(rec, createChatModel(cfg(srv.url)));
    // results.jsonl as a lexcase before the total-only and content-filter readings wrote it
    const lines = readFileSync(resultsPath(rec), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    for (const r of lines) r.tokens = { input: 0, output: 0, total: 0, calls: 1, cached: 0, unreported: 1 };
    writeFileSync(resultsPath(rec), `${lines.map((r) => JSON.stringify(r)).join('\n')}\n`);

    const warn = vi.spyOn(log, 'warn');
    const replayed = join(dir, 'replay');
    await run(replayed, createChatModel(cfg('http://127.0.0.1:9/v1'), { replayFrom: rec }));
    const w = warnings(warn);
    expect(w).toContain(`the replayed token counts differ from the recording's (${rec}) for 3 of 3 items (`);
    expect(w).toContain('mbe_137: total 0 → 116, unreported 1 → –, totalOnly – → 1');
    expect(w).toContain('mbe_222: total 0 → 116, unreported 1 → –, filtered – → 1, totalOnly – → 1');
    // the answers are the recording's
    const answers = (f: string) =>
      readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).prediction);
    expect(answers(resultsPath(replayed))).toEqual(answers(resultsPath(rec)));
  });

  it('a recording this lexcase made replays byte for byte, with no such warning', async () => {
    srv = await startScriptedServer(totalOnlyFiltered);
    const rec = join(dir, 'rec');
    await run(rec, createChatModel(cfg(srv.url)));
    const warn = vi.spyOn(log, 'warn');
    const replayed = join(dir, 'replay');
    await run(replayed, createChatModel(cfg('http://127.0.0.1:9/v1'), { replayFrom: rec }));
    expect(warnings(warn)).not.toContain('replayed token counts differ');
    expect(readFileSync(resultsPath(replayed), 'utf8')).toBe(readFileSync(resultsPath(rec), 'utf8'));
  });
});
