/**
 * `lexcase run baseline … --run-dir D --limit N` as a reproduce grid runs a cell, in process (a
 * CommandRunner for runGrid): the first N of `questions()` answered "A" each, config and seed as the
 * grid's llm-only cell records them. For tests of the grid, its shards and merge.
 */
import type { Question } from '../../../corpora/types.js';
import { contextFrom, runExperiment } from '../../runner.js';
import type { CommandRunner } from '../run-grid.js';

export function baselineRunner(questions: () => Question[]): CommandRunner {
  // lexcase's baseline, as `lexcase run baseline` records it (provenance.lexcaseSystem)
  return async (argv) => {
    const limit = Number(argv[argv.indexOf('--limit') + 1]);
    await runExperiment({
      runDir: argv[argv.indexOf('--run-dir') + 1],
      system: async () => ({ prediction: 'A', trace: {} }),
      items: questions().slice(0, limit),
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit },
      seed: 13,
      lexcaseSystem: 'baseline',
    });
    return { code: 0, stdout: '', stderr: '' };
  };
}
