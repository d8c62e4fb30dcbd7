/**
 * `lexcase merge <out> <shardDir>…`: join the run dirs that `lexcase reproduce --shard i/n` left on
 * several hosts into one reproduction (checksummed; no duplicate or missing item), then write its
 * table.md/table.json. See eval/reproduce/merge.ts and docs/reproductions.md.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { action, output, type GlobalOpts } from '../action.js';

export function register(program: Command): void {
  program
    .command('merge')
    .description('join the shard dirs of `lexcase reproduce --shard i/n` into one reproduction and write its table')
    .argument('<out>', 'new reproduction dir')
    .argument('<shards...>', 'the shard dirs (every i of n, once)')
    .option('--recipe <file>', "recipe to build the table with (default: the shards' recipe by name)")
    .action(
      action(async (out: string, shards: string[], flags: { recipe?: string }, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        const [{ mergeShards }, { loadRecipe }, { readReproduction }] = await Promise.all([
          import('../../../eval/reproduce/merge.js'),
          import('../../../eval/reproduce/recipe.js'),
          import('../../../eval/reproduce/run-grid.js'),
        ]);
        const first = await readReproduction(shards[0]);
        if (!first) throw errors.runInvalid(shards[0], 'has no reproduction.json (not a `lexcase reproduce` run dir)');
        const { recipe, file, text } = loadRecipe(flags.recipe ?? first.recipe);
        const r = await mergeShards(out, shards, recipe, { file, text, explicit: flags.recipe !== undefined, arg: flags.recipe });
        output(
          g,
          { out: r.out, shards: r.shards, runs: r.runs, table: r.table, ...(r.warnings ? { warnings: r.warnings } : {}) },
          () => `${r.tableMd}\nmerged ${r.shards} shards into ${r.out}; wrote ${join(r.out, 'table.md')}`,
        );
        // as `reproduce`: nothing merged as done (every run failed in some shard) is no reproduction, whatever the table lists
        const ran = r.runs.filter((s) => s.status !== 'not run');
        if (ran.length > 0 && !ran.some((s) => s.status === 'done')) {
          log.error(`no run of ${recipe.id} was merged as done (${ran.length} ${ran.length === 1 ? 'run' : 'runs'}): see the table's runs`);
          process.exitCode = 1;
        }
      }),
    );
}
