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

it('runExperiment refuses a seed outside 0..4294967295 (4294967297 drew as seed 1) naming the option, and creates no run dir', async () => {
  tmp = mkdtempSync(join(tmpdir(), 'lexcase-runner-seed-'));
  const runDir = join(tmp, 'run');
  for (const seed of [4294967297, 1.5, -1])
    await expect(
      runExperiment<{ id: string }>({
        runDir,
        items: [{ id: 'q1' }],
        gold: () => 'A',
        system: async () => ({ prediction: 'A', trace: {} }),
        makeContext: () => ({}) as never,
        config: {},
        seed,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/invalid seed: a seed must be an integer from 0 to 4294967295/) });
  expect(existsSync(runDir)).toBe(false);
});
