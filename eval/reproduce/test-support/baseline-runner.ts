/**
 * `lexcase run baseline … --run-dir D --limit N` as a reproduce grid runs a cell, in process (a
 * CommandRunner for runGrid): the first N of `questions()` answered "A" each, config and seed as the
 * grid's llm-only cell records them. For tests of the grid, its shards and merge.
 */
import type { Question } from '../../../corpora/types.js';
import { noItemSucceeded } from '../../no-item-succeeded.js';
import { readResults } from '../../run-dir.js';
import { contextFrom, runExperiment } from '../../runner.js';
import type { CommandRunner } from '../run-grid.js';

/**
 * `fails`: the items whose request fails (an HTTP 500 each); a cell none of whose items succeeded
 * exits 1 with the CLI's line (src/cli/run-command.ts exitWhenNoItemSucceeded).
 */
export function baselineRunner(questions: () => Question[], fails?: (q: Question) => boolean): CommandRunner {
  // lexcase's baseline, as `lexcase run baseline` records it (provenance.lexcaseSystem)
  return async (argv) => {
    const limit = Number(argv[argv.indexOf('--limit') + 1]);
    await runExperiment({
      runDir: argv[argv.indexOf('--run-dir') + 1],
      system: async (q) => {
        if (fails?.(q)) throw new Error('HTTP 500 from the server');
        return { prediction: 'A', trace: {} };
      },
      items: questions().slice(0, limit),
      gold: (q) => q.answer,
      makeContext: contextFrom(),
      config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit },
      seed: 13,
      lexcaseSystem: 'baseline',
    });
    const none = noItemSucceeded((await readResults(argv[argv.indexOf('--run-dir') + 1])).records);
    return none === undefined ? { code: 0, stdout: '', stderr: '' } : { code: 1, stdout: '', stderr: `[error] ${none}\n` };
  };
}
