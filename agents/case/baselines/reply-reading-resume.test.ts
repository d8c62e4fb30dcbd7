/**
 * How replies are read (`replyReading`, core/llm/reply-reading.ts) changed on 2026-12-01: a draft
 * object in a `<thinking>` block or a gpt-oss Harmony analysis channel was taken for the answer, and
 * so was the first of two different objects in one reply. A run dir that records the older reading
 * resumes with a warning saying so (its earlier items may have been scored on a draft), and records
 * the new one from then on. The real client against a scripted server on 127.0.0.1.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { llmConfigSchema } from '../../../core/config.js';
import { createChatModel } from '../../../core/llm/factory.js';
import { REPLY_READING, REPLY_READING_BEFORE_HARMONY } from '../../../core/llm/reply-reading.js';
import { closeSparseIndexes } from '../../../retrieval/open-sparse.js';
import { buildSmallBarexamIndex } from '../../../tests/support/small-barexam-index.js';
import { schemaFollowing, startScriptedServer, type ScriptedServer } from '../../../tests/support/scripted-openai-server.js';
import { runCaseExperiment } from '../experiment.js';

let dir: string;
let index: string;
let srv: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reply-reading-resume-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: 2 });
  srv = await startScriptedServer(schemaFollowing());
}, 120_000);
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await srv.close();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const configFile = (runDir: string) => join(runDir, 'config.json');
const recorded = (runDir: string) => JSON.parse(readFileSync(configFile(runDir), 'utf8'));

describe('replyReading', () => {
  it('a run dir that records the reading of before 2026-12-01 (only <think> blocks dropped) resumes with a warning saying it records an older one', async () => {
    const runDir = join(dir, 'llm-only');
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', cacheDir: false, maxRetries: 0, timeoutMs: 10_000 }));
    const run = (limit: number) =>
      runCaseExperiment({ system: 'baseline', mode: 'llm-only', llm, model: { model: 'm' }, dataset: 'barexam', split: 'val', index, limit, runDir });
    await run(1);
    const old = recorded(runDir);
    expect(old.config.replyReading).toBe(REPLY_READING);
    old.config.replyReading = REPLY_READING_BEFORE_HARMONY;
    writeFileSync(configFile(runDir), JSON.stringify(old));
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
    const r = await run(2);
    expect(r).toMatchObject({ ran: 1, skipped: 1, failed: 0 });
    expect(stderr).toMatch(/records an older replyReading \(how replies are read: .*<thinking> block or a gpt-oss Harmony analysis channel/);
    expect(recorded(runDir)).toMatchObject({ config: { replyReading: REPLY_READING }, resumes: [{ unchecked: ['replyReading'] }] });
  }, 120_000);
});
