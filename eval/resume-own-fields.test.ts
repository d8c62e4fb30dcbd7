/**
 * A resume's "written by an older lexcase and does not record …" concerns only fields lexcase records:
 * a system of the user's own (runExperiment without `lexcaseSystem`) whose config has fields named
 * `prompts` or `dataFiles` has them compared as its own. Before, a user's config that added its own
 * `prompts` resumed with that warning (the earlier items made with other prompts, unseen), and a
 * user's `dataFiles` that named another file was taken for lexcase's data-file record and resumed as
 * "moved" (its `file` ignored). The runner's own fields (seedDerivation) are still lexcase's in every run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runConstantSystem } from './test-support/constant-system.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-own-fields-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const items = ['q1', 'q2', 'q3'].map((id, i) => ({ id, answer: 'ABA'[i] }));

async function run(config: Record<string, unknown>, lexcaseSystem?: string): Promise<{ stderr: string; ran: number }> {
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  try {
    const r = await runConstantSystem({ runDir: dir, items, config, lexcaseSystem });
    return { stderr, ran: r.ran };
  } finally {
    spy.mockRestore();
  }
}

describe("a resume reads lexcase's own fields only in a run of a lexcase system", () => {
  it('a system of your own that adds its own `prompts` is refused as a different config, not warned about as an older lexcase', async () => {
    await run({ system: 'my-rag', dataset: 'mine' });
    const resumed = run({ system: 'my-rag', dataset: 'mine', prompts: { answer: 'You are a careful lawyer. Answer with one letter.' } });
    await expect(resumed).rejects.toMatchObject({ code: 'RUN_INVALID' });
    await expect(resumed).rejects.toThrow(/field "prompts" differs/);
    await expect(resumed).rejects.not.toThrow(/older lexcase/);
  });

  it('a system of your own whose `dataFiles` names another file is refused, not resumed as the same data moved', async () => {
    await run({ system: 'my-rag', dataFiles: { test: { file: 'my-questions-v1.csv' } } });
    await expect(run({ system: 'my-rag', dataFiles: { test: { file: 'my-questions-v2.csv' } } })).rejects.toThrow(/field "dataFiles" differs/);
  });

  it("a run dir of yours written before the runner recorded seedDerivation still resumes with the runner's warning", async () => {
    await run({ system: 'my-rag' });
    const old = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    delete old.config.seedDerivation;
    delete old.provenance.lexcaseSystem;
    writeFileSync(join(dir, 'config.json'), JSON.stringify(old));
    const r = await run({ system: 'my-rag' });
    expect(r.stderr).toMatch(/written by an older lexcase and does not record seedDerivation/);
    expect(r.stderr).not.toMatch(/does not record prompts/);
  });

  it("a run of lexcase's system written before `prompts` was recorded still resumes with the warning", async () => {
    await run({ system: 'acal/acal', task: 'hearsay' }, 'acal');
    const r = await run({ system: 'acal/acal', task: 'hearsay', prompts: { sha256: 'abc' } }, 'acal');
    expect(r.stderr).toMatch(/written by an older lexcase and does not record prompts/);
  });
});
