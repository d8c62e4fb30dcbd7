/**
 * `lexcase reproduce <recipe> [--endpoint URL --model M] [--llm-provider P] [--replay DIR] [--limit N] [--shard i/n] [--run-dir DIR]
 *  [--index DIR] [--data DIR] [--only a,b]`: run a paper table's grid (recipes/<paper>-<table>.json)
 * through the experiment runner — resumable, LLM responses cached — and write table.md/table.json
 * with the paper's numbers beside lexcase's (95% CI, n, ⚠ where the paper's value is outside the CI).
 * `lexcase reproduce` alone lists the recipes. Exit 1 when no run of the recipe succeeded. See docs/reproductions.md.
 */
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { LLM_PROVIDERS } from '../../../core/llm/providers.js';
import { log } from '../../../core/log.js';
import { addEndpointOptions } from '../llm-options.js';
import { action, output, parseIntOpt, parseListOpt, type GlobalOpts } from '../action.js';
import type { CliContext } from './types.js';
import type { ReproduceFlags } from './reproduce-run.js';

export function register(program: Command, ctx: CliContext): void {
  addEndpointOptions(
    program
      .command('reproduce')
      .description("run a paper table's grid from its recipe and print the paper's numbers beside lexcase's (no recipe: list them)")
      .argument('[recipe]', 'recipe name (e.g. case-table3) or path to a recipe .json'),
  )
    .option('--limit <n>', 'smoke run: the first N items of every run (3-ply recipes: N triples per scenario)', parseIntOpt('limit'))
    .option('--shard <i/n>', "run only shard i of n of every run's items (join the shards with `lexcase merge`)")
    .option('--run-dir <dir>', 'reproduction dir (default runs/reproduce-<recipe>[-n<limit>][-shard<i>of<n>])')
    .option('--index <dir>', 'index for the retrieval and RAG runs (default: the bundled index, built if absent)')
    .option(
      '--data <dir>',
      'data that is not bundled: LegalBench learned_hands_courts, or your CACM folder for anserini-cacm (cacm.tar.gz, topics.cacm.txt, qrels.cacm.txt)',
    )
    .option('--only <ids>', 'only these run ids of the recipe (comma-separated)', parseListOpt)
    .option('--config <file>', 'config file (default: ./lexcase.config.json if present)')
    .option('--no-cache', 'do not read or write the LLM response cache')
    .addOption(new Option('--llm-provider <name>', 'the LLM server (docs/llm.md)').choices([...LLM_PROVIDERS]))
    .option(
      '--replay <dir>',
      're-run a recorded reproduction dir from its recorded LLM exchanges (no endpoint; every results.jsonl byte-identical); give a new --run-dir',
    )
    .action(
      action(async (name: string | undefined, flags: ReproduceFlags, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        const { listRecipes, reproduce } = await import('./reproduce-run.js');
        if (!name) {
          const list = listRecipes();
          output(g, list, () =>
            list
              .map((r) => `${r.id.padEnd(16)} ${r.llm ? '(endpoint)' : '(offline) '} ${r.title}${r.ownDataOnly ? ' — needs your data (--data)' : ''}`)
              .join('\n'),
          );
          return;
        }
        const r = await reproduce(name, flags, ctx.fullProgram);
        output(g, { runDir: r.dir, table: r.table }, () => `${r.tableMd}\nwrote ${join(r.dir, 'table.md')} and table.json`);
        // nothing reproduced (every run failed or was unavailable, e.g. CACM without --data): the table
        // still lists each run's error, but a script must not read exit 0 as a reproduction
        const runs = r.table.runs;
        if (runs.length > 0 && !runs.some((s) => s.status === 'done')) {
          const first = runs.find((s) => s.error)?.error;
          log.error(`no run of ${r.table.recipe} succeeded (${runs.length} ${runs.length === 1 ? 'run' : 'runs'})${first ? `: ${first}` : ''}`);
          process.exitCode = 1;
        }
      }),
    );
}
