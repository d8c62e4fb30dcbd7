/**
 * The request fingerprint of ACAL and its baselines (config.json `prompts`): what each variant
 * sends — its prompt templates and reply schemas — hashed on a fixed probe, never an item. SP and
 * CoT differ (their reply schemas and instructions), the same settings give the same value, and a
 * resume of an SP run dir started when SP's reply schema was still {reasoning, answer} is refused
 * naming the part that changed, while a run dir an older lexcase wrote (no `prompts`) resumes with
 * the unrecorded-field warning and records it from then on.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { FakeChatModel } from '../../tests/support/fake-chat-model.js';
import { requestFingerprint } from '../../eval/request-fingerprint.js';
import { answerSchema } from './baselines/answer.js';
import { runAcal } from './experiment.js';
import { acalRequests } from './requests.js';
import '../systems.js';

const dir = mkdtempSync(join(tmpdir(), 'acal-requests-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fingerprint = (system: Parameters<typeof acalRequests>[0], task = 'hearsay', passageChars = 700) =>
  requestFingerprint(acalRequests(system, { task, passageChars }));
const configFile = (runDir: string) => join(runDir, 'config.json');
const recorded = (runDir: string) => JSON.parse(readFileSync(configFile(runDir), 'utf8'));
const sp = (runDir: string, limit: number) =>
  runAcal({ task: 'hearsay', runDir, system: 'sp', llm: new FakeChatModel(() => '{"answer":"Yes"}'), limit, iterations: 50 });

describe('the request fingerprint of ACAL and its baselines', () => {
  it('depends on the templates and schemas only: SP and CoT differ, each variant and task has its own, the same settings give the same value', () => {
    const [spA, cot, rag, acal] = [fingerprint('sp'), fingerprint('cot'), fingerprint('rag'), fingerprint('acal')];
    expect(spA).toEqual(fingerprint('sp'));
    expect(spA.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(spA.parts)).toEqual(['answer', 'schema', 'system']);
    expect(cot.sha256).not.toBe(spA.sha256);
    expect(cot.parts.schema).not.toBe(spA.parts.schema); // {reasoning, answer} vs {answer}
    expect(cot.parts.answer).not.toBe(spA.parts.answer);
    expect(cot.parts.system).toBe(spA.parts.system);
    expect(new Set([spA, cot, rag, acal].map((f) => f.sha256)).size).toBe(4);
    expect(Object.keys(acal.parts)).toEqual(['clash', 'generateArguments', 'judge', 'relations', 'score', 'selectTeam']);
    expect(fingerprint('sp', 'learned_hands_courts').sha256).not.toBe(spA.sha256);
  });

  it('two runs with the same settings record the same value; a resume under another SP reply schema is refused naming it', async () => {
    const [a, b] = [join(dir, 'sp-a'), join(dir, 'sp-b')];
    await sp(a, 1);
    await sp(b, 1);
    expect(recorded(a).config.prompts).toEqual(fingerprint('sp'));
    expect(recorded(b).config.prompts).toEqual(recorded(a).config.prompts);

    // the run dir as a lexcase whose SP asked for {reasoning, answer} left it
    const file = recorded(a);
    file.config.prompts = requestFingerprint({ ...acalRequests('sp', { task: 'hearsay', passageChars: 700 }), schema: answerSchema });
    writeFileSync(configFile(a), JSON.stringify(file));
    await expect(sp(a, 2)).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(
        /was started with a different config \(field "prompts" differs: prompts\.sha256; prompts\.parts\.schema "[0-9a-f]{16}" recorded, "[0-9a-f]{16}" now\); use a new run dir/,
      ),
    });
    expect(readFileSync(join(a, 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('a run dir an older lexcase wrote (no prompts) resumes with the warning and records them from then on', async () => {
    const old = join(dir, 'sp-old');
    await sp(old, 1);
    const file = recorded(old);
    delete file.config.prompts;
    writeFileSync(configFile(old), JSON.stringify(file));
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
    try {
      expect(await sp(old, 2)).toMatchObject({ ran: 1, skipped: 1 });
    } finally {
      spy.mockRestore();
    }
    expect(stderr).toMatch(/does not record prompts \(the prompts, reply schemas and tools it sends/);
    expect(recorded(old).resumes.at(-1).unchecked).toEqual(['prompts']);
    expect(recorded(old).config.prompts).toEqual(fingerprint('sp'));
  });
});
