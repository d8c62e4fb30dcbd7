/**
 * A resume that changes an operational setting (the cache dir, the timeout) says so with the value
 * the run's latest attempt used: before, a second resume with `--no-cache` printed
 * `with model.cacheDir false (was "/…/cache3")`, the value recorded at the start, though the first
 * resume had already switched it off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { runConstantSystem } from './test-support/constant-system.js';

let dir: string;
let questions: Question[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-resume-op-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, 3);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `run baseline --mode llm-only` with these model settings. */
const run = (runDir: string, model: Record<string, unknown>) =>
  runConstantSystem({
    runDir,
    items: questions,
    config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit: 3, model: { model: 'm', temperature: 0, ...model } },
  });

describe('the resume line names the value of the latest attempt', () => {
  it('a second --no-cache resume says it runs as the last resume did, with the value recorded at the start; a later switch back says what it was', async () => {
    const rd = join(dir, 'res1');
    await run(rd, { cacheDir: '/data/cache3', timeoutMs: 120_000 });
    const info = vi.spyOn(log, 'info');
    const lines = () => info.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith(`resuming ${rd} with`));
    await run(rd, { cacheDir: false, timeoutMs: 120_000 });
    expect(lines()).toEqual([`resuming ${rd} with model.cacheDir false (was "/data/cache3")`]);
    info.mockClear();
    // before: `model.cacheDir false (was "/data/cache3")` again
    await run(rd, { cacheDir: false, timeoutMs: 300_000 });
    expect(lines()).toEqual([
      `resuming ${rd} with model.cacheDir false (as the last resume; recorded at the start: "/data/cache3"), model.timeoutMs 300000 (was 120000)`,
    ]);
    info.mockClear();
    await run(rd, { cacheDir: '/data/cache4', timeoutMs: 300_000 });
    expect(lines()).toEqual([
      `resuming ${rd} with model.cacheDir "/data/cache4" (was false; recorded at the start: "/data/cache3"), model.timeoutMs 300000 (as the last resume; recorded at the start: 120000)`,
    ]);
    info.mockRestore();
  });
});
