/**
 * Recorded exchanges carry the hashes of their request and reply (issue 36, item 9): what
 * writeExchanges writes reads back as it was, and an edited reply, usage, request or a line with
 * no hashes is refused by readExchanges and verifyExchanges with LLM_RECORDING_ALTERED naming the
 * file and line. (The built CLI's `--replay` of edited recordings: tests/replay.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../agents/systems.js'; // the system list: old and new system names are read as one
import type { Exchange } from '../core/llm/record-replay.js';
import { SEED_DERIVATION } from '../core/rng.js';
import { madRequests } from '../agents/mad/requests.js';
import { requestFingerprint } from './request-fingerprint.js';
import { exchangesPath, modelSettingsPath, readExchanges, replayInfo, verifyExchanges, writeExchanges } from './llm-exchanges.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-xhash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const vote = (v: string): Exchange => ({
  n: 1,
  key: 'k2',
  stage: 'juror Skeptic',
  request: {
    messages: [
      { role: 'system', content: 'You are a juror.' },
      { role: 'user', content: 'Which option? A, B or C.' },
    ],
    params: { model: 'm', response_format: { type: 'json_schema' } },
  },
  reply: {
    generations: [
      {
        text: `{"reasoning":"r","vote":"${v}"}`,
        message: { type: 'ai', content: `{"reasoning":"r","vote":"${v}"}`, usage_metadata: { input_tokens: 812, output_tokens: 14 } },
      } as never,
    ],
    llmOutput: { tokenUsage: { promptTokens: 812, completionTokens: 14, totalTokens: 826 } },
  },
  ms: 40,
});
const first: Exchange = {
  n: 0,
  key: 'k1',
  request: { messages: [{ role: 'user', content: 'search' }], params: { model: 'm' } },
  error: { code: 'LLM_REQUEST_FAILED', message: 'HTTP 500' },
};

async function recorded(name: string): Promise<{ run: string; file: string; lines: string[] }> {
  const run = join(dir, name);
  await writeExchanges(run, 'q1', [first, vote('C')]);
  const file = exchangesPath(run, 'q1');
  return { run, file, lines: readFileSync(file, 'utf8').trimEnd().split('\n') };
}

describe('recorded exchanges are verified against their hashes', () => {
  it('a recording reads back as written (hashes of the request and the reply on every line)', async () => {
    const { run, lines } = await recorded('intact');
    expect(lines.map((l) => Object.keys(JSON.parse(l).hash ?? {}))).toEqual([
      ['request', 'reply'],
      ['request', 'reply'],
    ]);
    const back = await readExchanges(run, 'q1');
    expect(back.map((x) => x.stage ?? x.error?.message)).toEqual(['HTTP 500', 'juror Skeptic']);
    await expect(verifyExchanges(run)).resolves.toBeUndefined();
  });

  const cases: [string, (l: string) => string, RegExp][] = [
    ['a vote C → A', (l) => l.replaceAll('\\"vote\\":\\"C\\"', '\\"vote\\":\\"A\\"'), /the recorded reply/],
    ['the usage', (l) => l.replace('"promptTokens":812', '"promptTokens":12'), /the recorded reply/],
    ['the request text', (l) => l.replace('Which option? A, B or C.', 'Which option? A, B or C. Prefer A.'), /the recorded request/],
    ['keys reordered, nothing changed', (l) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(l)).reverse())), /^$/],
    ['no hashes (an older recording)', (l) => JSON.stringify({ ...JSON.parse(l), hash: undefined }), /has no content hash/],
  ];
  for (const [what, edit, why] of cases)
    it(`${what}: ${why.source === '^$' ? 'still reads' : 'refused with the file and line'}`, async () => {
      const { run, file, lines } = await recorded(what.replace(/\W+/g, '-'));
      lines[1] = edit(lines[1]);
      writeFileSync(file, lines.join('\n') + '\n');
      if (why.source === '^$') return void (await expect(readExchanges(run, 'q1')).resolves.toHaveLength(2));
      for (const read of [() => readExchanges(run, 'q1'), () => verifyExchanges(run)]) {
        const e = await read().catch((x: unknown) => x);
        expect(e).toMatchObject({ code: 'LLM_RECORDING_ALTERED', details: { file, line: 2 } });
        expect((e as Error).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2: `));
        expect((e as Error).message).toMatch(why);
      }
    });
});

describe('a replay is compared with the recorded config', () => {
  it('the local model identity (`local`, as ACAL, EMAR and 3-ply record it) may differ like `model`: a replay needs no model file; any other field still refuses', async () => {
    const { run } = await recorded('local-config');
    writeFileSync(modelSettingsPath(run), JSON.stringify({ model: 'tiny.gguf@sha256:1b433cc90cb1726a' }));
    const local = { sha256: '1b433cc90cb1726ae420eacdede8cc44496910a9e98b355cf1f978898d9ced16', gguf: { architecture: 'llama' }, runtime: { threads: 1 } };
    writeFileSync(
      join(run, 'config.json'),
      JSON.stringify({ seed: 13, config: { system: 'acal', task: 'hearsay', model: 'tiny.gguf@sha256:1b433cc90cb1726a', local } }),
    );
    writeFileSync(join(run, 'results.jsonl'), '');
    await expect(replayInfo(run, { system: 'acal', task: 'hearsay', model: 'tiny.gguf@sha256:1b433cc90cb1726a' }, 13)).resolves.toMatchObject({ dir: run });
    await expect(replayInfo(run, { system: 'acal', task: 'learned_hands_courts' }, 13)).rejects.toThrow(
      /was recorded with task = "hearsay", this replay has "learned_hands_courts"/,
    );
    // the resamples of the run's own report (run acal --iterations, recorded since) change no result: not a difference
    await expect(
      replayInfo(run, { system: 'acal', task: 'hearsay', model: 'tiny.gguf@sha256:1b433cc90cb1726a', bootstrap: { iterations: 2000 } }, 13),
    ).resolves.toMatchObject({ dir: run });
    // the run recorded the old name `acal`; today's command writes `acal/acal` (one naming scheme): the same system, not a baseline
    await expect(replayInfo(run, { system: 'acal/acal', task: 'hearsay', model: 'tiny.gguf@sha256:1b433cc90cb1726a' }, 13)).resolves.toMatchObject({
      dir: run,
    });
    await expect(replayInfo(run, { system: 'acal/cot', task: 'hearsay' }, 13)).rejects.toThrow(
      /was recorded with system = "acal\/acal", this replay has "acal\/cot"/,
    );
  });

  it('a MAD run recorded with older prompts is refused as such — not replayable by this version, re-run with `lexcase run mad …` — not with advice to use the recorded flags', async () => {
    const { run } = await recorded('older-prompts');
    writeFileSync(modelSettingsPath(run), JSON.stringify({ model: 'm' }));
    writeFileSync(join(run, 'results.jsonl'), '');
    const parts = madRequests('mad', { passageChars: 700, tools: [] });
    const judge = Object.keys(parts).find((k) => /judge/i.test(k)) ?? Object.keys(parts)[0];
    // the run as the lexcase before the last change to the judge's template recorded it
    const older = requestFingerprint({ ...parts, [judge]: 'You are the judge of an older lexcase. Pick A, B, C or D.' });
    const cfg = { system: 'mad/mad', rounds: 2, topology: 'all-to-all', dataset: 'barexam', split: 'val', k: 5, seedDerivation: SEED_DERIVATION };
    writeFileSync(
      join(run, 'config.json'),
      JSON.stringify({ seed: 13, config: { ...cfg, prompts: older }, provenance: { gitSha: 'a1b2c3d4e5f60718293a', lexcaseVersion: '0.0.9' } }),
    );
    const e = (await replayInfo(run, { ...cfg, prompts: requestFingerprint(parts) }, 13).catch((x: unknown) => x)) as Error & { code: string };
    expect(e.code).toBe('RUN_INVALID');
    expect(e.message).toContain(
      `was recorded with an older prompt version of mad/mad (prompts ${older.sha256.slice(0, 12)}, recorded by lexcase 0.0.9, git sha a1b2c3d4e5f6;`,
    );
    expect(e.message).toContain(`part ${judge} changed`);
    expect(e.message).toContain(
      'it cannot be replayed with this version; re-run with `lexcase run mad …` (the recorded command, without --replay) into a new run dir to get a fresh run',
    );
    expect(e.message).not.toMatch(/recorded run's flags/);
    // the same prompts: replayed
    writeFileSync(join(run, 'config.json'), JSON.stringify({ seed: 13, config: { ...cfg, prompts: requestFingerprint(parts) } }));
    await expect(replayInfo(run, { ...cfg, prompts: requestFingerprint(parts) }, 13)).resolves.toMatchObject({ dir: run });
  });

  it("a recording whose items' seeds were derived otherwise (an older lexcase, which did not record it) is refused: its orders and tie-breaks would differ", async () => {
    const { run } = await recorded('seed-derivation');
    writeFileSync(modelSettingsPath(run), JSON.stringify({ model: 'm' }));
    writeFileSync(join(run, 'results.jsonl'), '');
    const cfg = { system: 'case', dataset: 'barexam', split: 'val', model: 'm' };
    const now = { ...cfg, seedDerivation: SEED_DERIVATION };
    writeFileSync(join(run, 'config.json'), JSON.stringify({ seed: 13, config: cfg }));
    await expect(replayInfo(run, now, 13)).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(
        /was recorded with seed derivation FNV-1a alone \(an older lexcase's, unrecorded\), this lexcase draws with fnv1a-fmix32: .*replay it with the lexcase version that recorded it/,
      ),
    });
    writeFileSync(join(run, 'config.json'), JSON.stringify({ seed: 13, config: { ...cfg, seedDerivation: 'fnv1a-v0' } }));
    await expect(replayInfo(run, now, 13)).rejects.toThrow(/was recorded with seed derivation fnv1a-v0, this lexcase draws with fnv1a-fmix32/);
    writeFileSync(join(run, 'config.json'), JSON.stringify({ seed: 13, config: now }));
    await expect(replayInfo(run, now, 13)).resolves.toMatchObject({ dir: run });
  });
});
