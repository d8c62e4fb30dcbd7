/**
 * `lexcase eval retrieval --dataset barexam --split val --index DIR --method bm25,qld --k 1,10,100,1000`
 * or, on the user's own collection, `--topics FILE --qrels FILE` (eval-retrieval-topics.ts).
 * Registers `retrieval` under the shared `eval` command (created here if no other module has).
 */
import { mkdir } from 'node:fs/promises';
import { writeAtomic } from '../../../eval/run-dir.js';
import { whileInterruptible } from '../../../core/interrupt.js';
import { exitOnInterrupt } from '../run-interrupt.js';
import { finalWrites } from './eval-retrieval-final-writes.js';
import { basename, dirname } from 'node:path';
import { type Command, Option } from 'commander';
import { datasetNames, datasetsWithGold } from '../../../corpora/catalog.js';
import { BAREXAM_SPLIT_SIZES, DEFAULT_SPLIT_SEED, parseSplit } from '../../../corpora/split-spec.js';
import { DEFAULT_KS } from '../../../eval/retrieval-ks.js';
import type { Progress } from '../../../core/progress.js';
import { givenArgs } from '../given-args.js';
import { shellWord } from '../../../core/shell-word.js';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { assertOutFiles, runFileOutputs } from '../out-file.js';
import { resamplesOpt, seedOpt } from '../numeric-options.js';
import { action, output, parseListOpt, parseUniqueListOpt, type GlobalOpts } from '../action.js';
import { addRetrieverOptions, retrieverOptions, type RetrieverFlags } from './retriever-options.js';
import { addTopicsOptions, assertNoTopicsOptions, runTopicsEval, type TopicsFlags } from './eval-retrieval-topics.js';

interface EvalRetrievalFlags extends RetrieverFlags {
  topics?: string;
  qrels?: string;
  dataset: string;
  split: string;
  index: string;
  method: string[];
  k: string;
  seed: number;
  splitSeed: number;
  iterations: number;
  runFile?: string;
  qrelsFile?: string;
  datasetFile?: string;
  out?: string;
  plot?: string;
  sweepFusion?: boolean;
}

/** The shared `eval` parent command: reuse it when another module registered it first. */
export function evalCommand(program: Command): Command {
  return program.commands.find((c) => c.name() === 'eval') ?? program.command('eval').description('evaluate retrieval and systems');
}

export const SPLIT_HELP = `split: train | val | test | all. Seeded splits with the original Bar Exam QA sizes (train ${BAREXAM_SPLIT_SIZES.train} / val ${BAREXAM_SPLIT_SIZES.val} / test ${BAREXAM_SPLIT_SIZES.test}); the original membership is not available, so lexcase draws its own (seed ${DEFAULT_SPLIT_SEED} by default, --split-seed to change)`;

/** The --dataset help: the bundled datasets with gold passages (the others, e.g. mmlu_pro_law, are refused: nothing to evaluate against). */
const withGold = datasetsWithGold();
const noGold = datasetNames().filter((n) => !withGold.includes(n));
const DATASET_HELP = `question dataset with gold passages: ${withGold.join(', ')}${noGold.length ? ` (${noGold.join(', ')}: none, refused)` : ''}`;

/**
 * What Ctrl-C / SIGTERM during `eval retrieval` keeps (one line, then exit 130 / 143): the report files
 * are written only at the end, a run file only once all its questions are searched (the partial temp
 * file is removed, eval/retrieval-eval-run-file.ts).
 */
export const EVAL_RETRIEVAL_INTERRUPTED_NOTE =
  'no report written (--out, --plot, --qrels-file are written at the end) and no run file of part of the questions left (an earlier file at that path is as it was)';

export function register(program: Command): void {
  addRetrieverOptions(
    addTopicsOptions(
      evalCommand(program)
        .command('retrieval')
        .description(
          'Recall@k, MRR@10 and nDCG@10 (95% intervals: Wilson where every value is 0 or 1, bootstrap for graded means) of retrieval methods on a dataset split; query = prompt + "\\n" + question',
        )
        .requiredOption('--index <dir>', 'index directory')
        .option('--dataset <name>', DATASET_HELP, 'barexam')
        .option('--split <split>', SPLIT_HELP, 'val')
        .addOption(new Option('--method <list>', 'comma list of methods, e.g. bm25,qld').argParser(parseUniqueListOpt('method')).default(['bm25'], 'bm25'))
        .option('--k <list>', 'comma list of cutoffs for Recall@k', DEFAULT_KS.join(','))
        .option('--seed <n>', 'bootstrap seed', seedOpt('seed'), 13)
        .option('--split-seed <n>', 'split seed', seedOpt('split-seed'), DEFAULT_SPLIT_SEED)
        .option('--iterations <n>', 'bootstrap resamples', resamplesOpt(), 2000)
        .option('--run-file <file>', 'write a TREC run file (one per method: <name>.<method><ext> when several)')
        .option('--qrels-file <file>', 'write the TREC qrels of the evaluated questions')
        .option('--dataset-file <file>', 'read the dataset from this file (same format) instead of the bundled copy')
        .option('--out <file>', 'also write the full JSON report (per-query ranks included) to this file')
        .option(
          '--plot <file>',
          'also write the Recall@k curves (one per method, 95% interval bands) as an SVG file (with --topics: over the topics, relevant = grade ≥ --relevance-level)',
        )
        .option(
          '--sweep-fusion',
          'instead: tune hybrid fusion on --split (default train here; another split is warned about: its figures are in-sample) over --method components (default bm25,qld,dense): print Recall@10/@100 of every setting and the chosen one',
        ),
    ),
  ).action(
    action(async (flags: EvalRetrievalFlags, cmd: Command) => {
      if (flags.topics !== undefined || flags.qrels !== undefined) return runTopicsEval(flags as unknown as TopicsFlags, cmd);
      assertNoTopicsOptions(cmd);
      const g = cmd.optsWithGlobals() as GlobalOpts;
      const { parseKs } = await import('../../../eval/retrieval-eval.js');
      const ks = parseKs(flags.k, '--k');
      if (flags.method.length === 0) throw errors.invalidInput('--method', 'give at least one method');
      // Never into the index it reads (nor any index or run dir), never over the dataset file.
      assertOutFiles(
        [
          { flag: '--out', file: flags.out, example: 'report.json' },
          { flag: '--plot', file: flags.plot, example: 'recall.svg' },
          ...runFileOutputs(flags.runFile, flags.method),
          { flag: '--qrels-file', file: flags.qrelsFile, example: 'qrels.txt' },
        ],
        [flags.index, flags.datasetFile],
      );
      if (flags.sweepFusion) {
        // the sweep prints its table and writes no report, run file, plot or qrels, and has no interval:
        // these flags were accepted and dropped with exit 0 (helper audit)
        const unread = (
          [
            ['out', '--out'],
            ['plot', '--plot'],
            ['runFile', '--run-file'],
            ['qrelsFile', '--qrels-file'],
            ['seed', '--seed'],
            ['iterations', '--iterations'],
          ] as const
        ).filter(([k]) => cmd.getOptionValueSource(k) === 'cli');
        if (unread.length)
          throw errors.usage(
            `${unread.map(([, f]) => f).join(', ')} with --sweep-fusion: the sweep prints its table of Recall@k (--json for it whole) and writes no report, run file, plot or qrels, and has no bootstrap, so ${unread.length === 1 ? 'it does' : 'they do'} nothing there`,
            'leave it out, or evaluate the chosen setting with eval retrieval --method hybrid and those flags',
          );
        // the grid sets every setting's fusion, methods, weights, RRF k and depth: these were warned "ignored by bm25, qld"
        const gridSet = (
          [
            ['fusion', '--fusion'],
            ['hybridMethods', '--hybrid-methods'],
            ['weights', '--weights'],
            ['rrfK', '--rrf-k'],
            ['depth', '--depth'],
          ] as const
        ).filter(([k]) => cmd.getOptionValueSource(k) === 'cli');
        if (gridSet.length)
          throw errors.usage(
            `${gridSet.map(([, f]) => f).join(', ')} with --sweep-fusion: the sweep's grid sets every setting's fused methods, fusion, weights, RRF k and depth, so ${gridSet.length === 1 ? 'it does' : 'they do'} nothing there`,
            'leave it out (the components are --method), or evaluate one setting with eval retrieval --method hybrid and those flags',
          );
        const { sweepFusion, formatFusionSweep } = await import('../../../eval/fusion-sweep.js');
        const explicit = cmd.getOptionValueSource('method') === 'cli';
        // the sweep writes no file: Ctrl-C / SIGTERM says so and exits 130 / 143, as `eval run`
        const stop = exitOnInterrupt('eval retrieval --sweep-fusion', process.argv.slice(2));
        const sweep = await sweepFusion({
          index: flags.index,
          components: explicit ? flags.method : undefined,
          dataset: flags.dataset,
          // train unless --split is given (the CLI's default split, val, is the one reports are read on)
          split: cmd.getOptionValueSource('split') === 'cli' ? parseSplit(flags.split) : 'train',
          splitSeed: flags.splitSeed,
          datasetFile: flags.datasetFile,
          ks: cmd.getOptionValueSource('k') === 'cli' ? ks : undefined,
          // the sweep fuses its components as hybrid does: hybrid's options are theirs
          retrieverOptions: retrieverOptions(flags, ['hybrid']),
        }).finally(() => stop.dispose());
        for (const w of sweep.warnings ?? []) log.warn(`eval retrieval --sweep-fusion: ${w}`);
        // the chosen setting on another split, with every option this sweep was given (its components' k1, b, mu,
        // dense query rule, split seed, …): printing only the fusion flags reran another setting (helper audit)
        const other = sweep.split === 'all' ? undefined : sweep.split === 'val' ? 'test' : 'val';
        if (other && sweep.best.flags) {
          const args = ['eval', 'retrieval', ...givenArgs(cmd, ['sweepFusion', 'method', 'split']), '--split', other, ...sweep.best.flags.split(' ')];
          sweep.heldOut = { split: other, command: ['lexcase', ...args].map(shellWord).join(' ') };
        }
        return output(g, sweep, () => formatFusionSweep(sweep));
      }
      const [{ evalRetrievalOnIndex }, { formatRetrievalReport }, { writeRecallPlot }, { createProgress }] = await Promise.all([
        import('../../../eval/retrieval-eval-index.js'),
        import('../../../eval/retrieval-eval-format.js'),
        import('../../../eval/plots/recall-plot-file.js'),
        import('../../../core/progress.js'),
      ]);
      // Ctrl-C / SIGTERM: the search stops, a partial run file is removed, one line says what was kept, exit 130 / 143
      const report = await whileInterruptible('eval retrieval', { note: EVAL_RETRIEVAL_INTERRUPTED_NOTE }, async (signal) => {
        let bar: Progress | undefined;
        let barMethod = '';
        const r = await evalRetrievalOnIndex({
          index: flags.index,
          methods: flags.method,
          dataset: flags.dataset,
          split: parseSplit(flags.split),
          splitSeed: flags.splitSeed,
          datasetFile: flags.datasetFile,
          ks,
          seed: flags.seed,
          iterations: flags.iterations,
          runFile: flags.runFile,
          qrelsFile: flags.qrelsFile,
          retrieverOptions: retrieverOptions(flags, flags.method),
          signal,
          onProgress: (method, done, total) => {
            if (method !== barMethod) {
              bar?.stop();
              barMethod = method;
              bar = createProgress(`eval ${method}`, { unit: 'queries' });
              bar.start(total);
            }
            bar!.update(done);
          },
        }).finally(() => bar?.stop());
        // a signal during the final writes lets them finish, then stops the command (exit 130 / 143)
        await finalWrites(signal, flags, async () => {
          if (flags.out) {
            await mkdir(dirname(flags.out), { recursive: true });
            await writeAtomic(flags.out, JSON.stringify(r, null, 2) + '\n');
          }
          if (flags.plot) {
            await mkdir(dirname(flags.plot), { recursive: true });
            await writeRecallPlot(dirname(flags.plot), r, {
              seed: flags.seed,
              iterations: flags.iterations,
              file: basename(flags.plot),
              title: `Recall@k — ${r.dataset.name} ${r.dataset.split} (n = ${r.dataset.n}), 95% interval bands`,
            });
          }
        });
        return r;
      });
      const compact = {
        ...report,
        results: report.results.map(({ perQuery, ...r }) => ({ ...r, perQuery: perQuery.map((q) => ({ id: q.id, firstRank: q.firstRank })) })),
      };
      output(g, compact, () => formatRetrievalReport(report));
    }),
  );
}
