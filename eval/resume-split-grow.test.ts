/**
 * A run grown from --split val to --split all (a split that holds every recorded item: docs/runner.md)
 * reads the same Bar Exam QA file under another split's name in config.json `dataFiles`: the resume
 * compares the files by their bytes, runs only the new items and records the grown split's files.
 * Before, it looked the recorded `val` file up under `all`, found none and refused the grow: "read
 * barexam val from bundled corpora/data/barexam/qa.jsonl.gz (sha256 195bf78f11c0d25e…), the command
 * now reads no file: another data file (its sha256 differs)" — the same file.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { datasetFileRecord, loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-resume-split-grow-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const system: AgentSystem<Question> = async () => ({ prediction: 'A', trace: {} });
const run = async (items: Question[], split: 'val' | 'all', dataFiles?: Record<string, unknown>) =>
  runExperiment({
    runDir: dir,
    lexcaseSystem: 'baseline',
    system,
    items,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: {
      system: 'baseline/llm-only',
      mode: 'llm-only',
      dataset: 'barexam',
      split,
      limit: null,
      dataFiles: dataFiles ?? { [split]: await datasetFileRecord('barexam', split) },
    },
    seed: 13,
  });

it('a resume with --split all over a val run reads the same file: it grows (only the new items run) and records the files as read for all', async () => {
  const val = (await loadQuestions('barexam', 'val')).slice(0, 3);
  const more = (await loadQuestions('barexam', 'train')).slice(0, 2);
  expect((await run(val, 'val')).ran).toBe(3);
  const grown = await run([...val, ...more], 'all');
  expect(grown).toMatchObject({ ran: 2, skipped: 3 });
  const cfg = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
  expect(cfg.config.split).toBe('all');
  expect(Object.keys(cfg.config.dataFiles)).toEqual(['all']);
  expect(cfg.resumes[0].grown).toEqual({ split: { from: 'val', to: 'all' } });
});

it('another file under the other split is still refused, naming both splits and files', async () => {
  const val = (await loadQuestions('barexam', 'val')).slice(0, 2);
  await run(val, 'val');
  const other = { ...(await datasetFileRecord('barexam', 'all')), sha256: 'f'.repeat(64) };
  await expect(run(val, 'all', { all: other })).rejects.toThrow(
    /read barexam val from bundled \S+ \(sha256 [0-9a-f]{16}…\), the command now reads barexam all from bundled \S+ \(sha256 ffffffffffffffff…\): other data files/,
  );
});
