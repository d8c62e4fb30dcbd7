/** A run over zero items is an error before anything is written (issue 12 §3: no table of zeros). */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { runExperiment } from './runner.js';

let tmp: string | undefined;
afterEach(() => tmp && rmSync(tmp, { recursive: true, force: true }));

it('runExperiment over an empty item list throws INVALID_INPUT and creates no run dir', async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lexcase-runner-empty-'));
  const runDir = join(tmp, 'run');
  await expect(
    runExperiment<{ id: string }>({
      runDir,
      items: [],
      gold: () => 'A',
      system: async () => ({ prediction: 'A', trace: {} }),
      makeContext: () => ({}) as never,
      config: {},
      seed: 1,
    }),
  ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/no items to run .*the dataset split is empty/) });
  expect(existsSync(runDir)).toBe(false);
});
