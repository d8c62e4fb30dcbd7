/**
 * A resume under other lexcase code than the run was started with (another commit after `git pull`,
 * another installed version) says so on stderr when it starts, naming both — before, only report.md
 * said it afterwards (config.json's `resumes[].gitSha`), and the resume itself ran without a word.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { VERSION } from '../core/version.js';
import { resumeCodeNote } from './resume-code.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-resume-code-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const system: AgentSystem<Question> = async (q) => ({ prediction: q.answer, trace: {} });
const config = { system: 'baseline/llm-only', dataset: 'barexam', split: 'val' };

async function run(items: Question[]): Promise<string> {
  let stderr = '';
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  try {
    await runExperiment({ runDir: dir, system, items, gold: (q) => q.answer, makeContext: contextFrom(), config, seed: 13 });
  } finally {
    spy.mockRestore();
  }
  return stderr;
}

/** What a run stopped after its first two items left, started by `code`. */
function interruptedUnder(code: { gitSha: string; lexcaseVersion: string }): string {
  const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  const own = cfg.provenance.gitSha as string;
  Object.assign(cfg.provenance, code);
  writeFileSync(join(dir, 'config.json'), JSON.stringify(cfg));
  const lines = readFileSync(join(dir, 'results.jsonl'), 'utf8').trimEnd().split('\n');
  writeFileSync(join(dir, 'results.jsonl'), `${lines.slice(0, 2).join('\n')}\n`);
  return own;
}

describe('a resume under other lexcase code', () => {
  it('says so on stderr when it starts, naming the run’s code and the running one', async () => {
    const items = (await loadQuestions('barexam', 'val')).slice(0, 4);
    await run(items);
    const own = interruptedUnder({ gitSha: 'a'.repeat(40), lexcaseVersion: '0.0.9' });
    const stderr = await run(items);
    const line = stderr.split('\n').find((l) => l.includes('other lexcase code'));
    expect(line).toBe(
      `[warn] resuming ${dir} under other lexcase code than it was started with: started by lexcase 0.0.9 at git sha ${'a'.repeat(40)}, resumed by lexcase ${VERSION} at git sha ${own} — the items this resume runs are made by this code (config.json resumes[].gitSha; report.md names it)`,
    );
    // the resume ran the two items left, under the code it named
    const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(cfg.resumes).toMatchObject([{ gitSha: own, items: 4, skipped: 2 }]);
  });

  it('says nothing when the code is the run’s own', async () => {
    const items = (await loadQuestions('barexam', 'val')).slice(0, 4);
    await run(items);
    const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    interruptedUnder({ gitSha: cfg.provenance.gitSha, lexcaseVersion: cfg.provenance.lexcaseVersion });
    expect(await run(items)).not.toContain('other lexcase code');
  });

  it('a merged run: any of its shards’ commits is its own; only the version differing is said too', () => {
    const merged = {
      gitSha: 'a1',
      lexcaseVersion: '0.1.0',
      gitShas: [
        { gitSha: 'a1', shards: [1], items: 3 },
        { gitSha: 'b2', shards: [2], items: 3 },
      ],
    };
    expect(resumeCodeNote('runs/x', merged, { gitSha: 'b2', lexcaseVersion: '0.1.0' })).toBeUndefined();
    expect(resumeCodeNote('runs/x', merged, { gitSha: 'c3', lexcaseVersion: '0.1.0' })).toContain(
      'started by lexcase 0.1.0 at git sha a1, b2, resumed by lexcase 0.1.0 at git sha c3',
    );
    expect(resumeCodeNote('runs/x', { gitSha: 'a1', lexcaseVersion: '0.1.0' }, { gitSha: 'a1', lexcaseVersion: '0.2.0' })).toContain(
      'started by lexcase 0.1.0 at git sha a1, resumed by lexcase 0.2.0 at git sha a1',
    );
  });
});
