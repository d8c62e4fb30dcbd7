/**
 * The command a reproduction records to rerun its grid (reproduction.json `argv`) keeps the LLM
 * settings the grid was given — --config, --no-cache, --llm-provider, --replay — as each cell's
 * `lexcase run` and a shard cell's `reproduce … --only` do. Before, it left them out: `lexcase reproduce case-table2
 * --config cfg.json --no-cache --llm-provider vllm` recorded `reproduce case-table2 --run-dir D
 * --model m`, which reruns the grid with ./lexcase.config.json (or none: other sampling, key and
 * endpoint), the response cache and the generic preset; a replay's, against the live endpoint.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js'; // the agent systems' list (a recipe names them), handed to eval
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { contextFrom, runExperiment } from '../runner.js';
import { loadRecipe } from './recipe.js';
import { runGrid, type CommandRunner } from './run-grid.js';

const LIMIT = 2;
let dir: string;
let questions: Question[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-grid-argv-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each `lexcase run baseline …` the grid runs, in process, answering "A"; the argv it was given is kept. */
const seen: string[][] = [];
const fakeRun: CommandRunner = async (argv) => {
  seen.push(argv);
  await runExperiment({
    runDir: argv[argv.indexOf('--run-dir') + 1],
    system: async () => ({ prediction: 'A', trace: {} }),
    items: questions,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit: LIMIT },
    seed: 13,
  });
  return { code: 0, stdout: '', stderr: '' };
};

const LLM_SETTINGS = ['--config', 'cfg.json', '--no-cache', '--llm-provider', 'vllm'];
const settings = { config: 'cfg.json', cache: false, llmProvider: 'vllm', model: 'm' };

describe('the recorded rerun commands of a reproduction given LLM settings', () => {
  it("reproduction.json's argv keeps --config, --no-cache and --llm-provider, as the cell's run command does", async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const d = join(dir, 'whole');
    const r = await runGrid({ recipe, recipeText: text, dir: d, limit: LIMIT, only: ['llm-only'], runCommand: fakeRun, ...settings });
    // the cell ran with them
    expect(seen.at(-1)).toEqual(expect.arrayContaining(LLM_SETTINGS));
    const recorded = JSON.parse(readFileSync(join(d, 'reproduction.json'), 'utf8'));
    // before: ['reproduce', 'case-table2', '--run-dir', d, '--limit', '2', '--model', 'm']
    expect(recorded.argv).toEqual(['reproduce', 'case-table2', ...LLM_SETTINGS, '--run-dir', d, '--limit', '2', '--model', 'm']);
    expect(r.reproduction.runs[0].argv).toEqual(expect.arrayContaining(LLM_SETTINGS));
  }, 60_000);

  it('a replay reproduction records --replay: its rerun command answers from the recording, not the live endpoint', async () => {
    const { recipe, text } = loadRecipe('case-table2');
    const d = join(dir, 'replayed');
    await runGrid({ recipe, recipeText: text, dir: d, limit: LIMIT, only: ['llm-only'], runCommand: fakeRun, replay: join(dir, 'whole'), model: 'm' });
    expect(seen.at(-1)).toEqual(expect.arrayContaining(['--replay', join(dir, 'whole', 'runs', 'llm-only')]));
    // before: ['reproduce', 'case-table2', '--run-dir', d, '--limit', '2', '--model', 'm']
    expect(JSON.parse(readFileSync(join(d, 'reproduction.json'), 'utf8')).argv).toEqual([
      'reproduce',
      'case-table2',
      '--replay',
      join(dir, 'whole'),
      '--run-dir',
      d,
      '--limit',
      '2',
      '--model',
      'm',
    ]);
  }, 60_000);
});
