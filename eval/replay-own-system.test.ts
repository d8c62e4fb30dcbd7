/**
 * A `--replay` (a model made with `replayFrom`) of a system of your own (runExperiment without
 * `lexcaseSystem`: config.json records `provenance.lexcaseSystem` null) compares its config's fields
 * as they are, as a resume does: its `prompts`, `dataFiles` and `sampling` are its own fields, not
 * lexcase's. Before, the replay read them by lexcase's rules: a recording without the `prompts` field
 * the system added since was taken as "an older lexcase's" and replayed with no word, a changed
 * `prompts` was refused as "an older prompt version of mine … re-run with `lexcase run mine …`" (no
 * such command), and a `dataFiles` entry naming another file with the same checksum, or another
 * `sampling`, replayed as the same run. Recorded through the factory's real client against a
 * scripted server on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { startScriptedServer, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { readResults } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import { answerOneLetter, ONE_LETTER_ITEMS } from './test-support/one-letter-system.js';

let dir: string;
let srv: ScriptedServer;
let rec: string;
let n = 0;

const own = {
  system: 'mine',
  prompts: { sha256: 'a'.repeat(64), parts: { answer: 'v1' } },
  dataFiles: { test: { file: '/data/mine/test.csv', sha256: 'b'.repeat(64) } },
  sampling: { votes: 5 },
};
const cfg = (url: string) => llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 0 });
const run = (runDir: string, config: Record<string, unknown>, replayFrom?: string, lexcaseSystem?: string) =>
  runExperiment({
    runDir,
    system: answerOneLetter,
    items: ONE_LETTER_ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm: replayFrom ? createChatModel(cfg('http://127.0.0.1:9/v1'), { replayFrom }) : createChatModel(cfg(srv.url)) }),
    config,
    seed: 1,
    ...(lexcaseSystem ? { lexcaseSystem } : {}),
  });
const replay = (config: Record<string, unknown>, from = rec) => run(join(dir, `replay-${++n}`), config, from);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-replay-own-'));
  srv = await startScriptedServer(() => ({ content: 'C' }));
  rec = join(dir, 'rec');
  await run(rec, own);
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a replay of a system of your own compares its own fields as they are', () => {
  it('the same config replays the recording', async () => {
    await replay(own);
    const predictions = async (runDir: string) => (await readResults(runDir)).records.map((r) => r.prediction);
    const recorded = await predictions(rec);
    expect(recorded).toHaveLength(ONE_LETTER_ITEMS.length);
    expect(await predictions(join(dir, `replay-${n}`))).toEqual(recorded);
  });

  it('another `prompts` is a field of its own that differs, not "an older prompt version" with a `lexcase run` command', async () => {
    const e = (await replay({ ...own, prompts: { sha256: 'c'.repeat(64), parts: { answer: 'v2' } } }).catch((x: unknown) => x)) as Error;
    expect(e.message).toMatch(/was recorded with prompts\.sha256 = "a{64}", this replay has "c{64}"; prompts\.parts\.answer = "v1", this replay has "v2"/);
    expect(e.message).not.toMatch(/older prompt version|lexcase run mine/);
  });

  it('a recording without the `prompts` field the system added since is refused, not replayed as an older lexcase’s', async () => {
    const older = join(dir, 'rec-no-prompts');
    const { prompts: _p, ...withoutPrompts } = own;
    await run(older, withoutPrompts);
    await expect(replay(own, older)).rejects.toThrow(/was recorded with prompts = \(unset\), this replay has \{/);
  });

  it('its `dataFiles` compare whole (another file, same checksum) and its `sampling` counts', async () => {
    await expect(replay({ ...own, dataFiles: { test: { file: '/elsewhere/test.csv', sha256: 'b'.repeat(64) } } })).rejects.toThrow(
      /was recorded with dataFiles\.test\.file = "\/data\/mine\/test\.csv", this replay has "\/elsewhere\/test\.csv"/,
    );
    await expect(replay({ ...own, sampling: { votes: 9 } })).rejects.toThrow(/was recorded with sampling\.votes = 5, this replay has 9/);
  });

  it("a recording of a lexcase system keeps lexcase's rules: another prompt version is refused as such", async () => {
    const mad = { system: 'mad/mad', rounds: 2, prompts: { sha256: 'd'.repeat(64), parts: { judge: 'v1' } } };
    const lexRec = join(dir, 'rec-mad');
    await run(lexRec, mad, undefined, 'mad');
    const e = (await run(join(dir, 'replay-mad'), { ...mad, prompts: { sha256: 'e'.repeat(64), parts: { judge: 'v2' } } }, lexRec, 'mad').catch(
      (x: unknown) => x,
    )) as Error;
    expect(e.message).toContain('was recorded with an older prompt version of mad/mad');
  });
});
