/**
 * `lexcase eval retrieval --topics FILE --qrels FILE --index DIR --method bm25,qld [--metrics …]`:
 * the user's own topics and graded qrels evaluated straight from an index (eval/trec/eval-index.ts),
 * the same numbers as `search --topics … --run-file` followed by `eval run`.
 */
import { mkdir } from 'node:fs/promises';
import { writeAtomic } from '../../../eval/run-dir.js';
import { whileInterruptible } from '../../../core/interrupt.js';
import { basename, dirname } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_DEPTH } from '../../../eval/trec/depth.js';
import { TOPICS_FORMAT_HELP } from '../../../corpora/topics.js';
import { BATCH_THREADS_HELP, defaultBatchThreads } from '../../../eval/trec/batch-threads.js';
import { intOpt } from '../numeric-options.js';
import type { CurvePoint } from '../../../eval/plots/specs.js';
import { assertOutFiles, runFileOutputs } from '../out-file.js';
import type { Progress } from '../../../core/progress.js';
import { parseTieMode, TIES_HELP, type TieMode } from '../../../eval/trec/anserini-ties.js';
import { errors } from '../../../core/errors.js';
import { output, parseIntOpt, type GlobalOpts } from '../action.js';
import { retrieverOptions, type RetrieverFlags } from './retriever-options.js';
import { addTrecEvalOptions, trecEvalOptions, type TrecEvalFlags } from './trec-eval-options.js';
import { addAggregateOptions, checkAggregateFlags, type AggregateFlags } from './aggregate-options.js';
import { finalWrites } from './eval-retrieval-final-writes.js';

export interface TopicsFlags extends TrecEvalFlags, RetrieverFlags, AggregateFlags {
  topics?: string;
  topicsFormat?: string;
  topicField?: string;
  threads?: number;
  hits: number;
  index: string;
  method: string[];
  runFile?: string;
  out?: string;
  plot?: string;
  ties?: TieMode;
}

/** Options of the --topics mode, added to `eval retrieval`. */
export function addTopicsOptions(cmd: Command): Command {
  return addTrecEvalOptions(
    addAggregateOptions(cmd, { searches: true })
      .option(
        '--topics <file>',
        'your own topics (TSV "qid<TAB>text", JSONL {"id","text"}, TREC SGML <top>…</top>, MS MARCO queries); needs --qrels (instead of --dataset)',
      )
      .option('--topics-format <fmt>', TOPICS_FORMAT_HELP)
      .option(
        '--topic-field <field>',
        'TREC SGML topics: the query is this field: title (default, as Anserini) | description | narrative, or several joined by + (title+description)',
      )
      .option('--hits <n>', `with --topics: hits retrieved per topic, as Pyserini's --hits (default ${DEFAULT_DEPTH})`, parseIntOpt('hits'), DEFAULT_DEPTH)
      .option('--ties <mode>', `with --topics: ${TIES_HELP}`, parseTieMode)
      .option('--threads <n>', `with --topics: ${BATCH_THREADS_HELP}`, intOpt('threads', { min: 1, max: 64 })),
    { qrelsRequired: false },
  );
}

/** Options of the Bar Exam QA mode that make no sense with --topics. */
const DATASET_ONLY = ['dataset', 'split', 'splitSeed', 'datasetFile', 'qrelsFile', 'k', 'sweepFusion'];
const flagName = (o: string) => `--${o.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Options of the --topics mode, refused in the --dataset mode rather than silently ignored. */
const TOPICS_ONLY = [
  'metrics',
  'complete',
  'relevanceLevel',
  'skipNoRelevant',
  'perTopic',
  'hits',
  'topicsFormat',
  'topicField',
  'ties',
  'threads',
  'aggregate',
  'docIdPattern',
  'passageHits',
];

export function assertNoTopicsOptions(cmd: Command): void {
  const given = TOPICS_ONLY.filter((o) => cmd.getOptionValueSource(o) === 'cli');
  if (given.length)
    throw errors.usage(
      `${given.map(flagName).join(', ')} ${given.length === 1 ? 'works' : 'work'} with --topics FILE --qrels FILE (your own collection); the --dataset mode reports Recall@k (--k), MRR@10 and nDCG@10`,
    );
}

/** What Ctrl-C / SIGTERM during `eval retrieval --topics` keeps (one line, then exit 130 / 143). */
const TOPICS_INTERRUPTED_NOTE =
  'no report written (--out and --plot are written at the end) and no run file of part of the topics left (an earlier file at that path is as it was)';

export async function runTopicsEval(flags: TopicsFlags, cmd: Command): Promise<void> {
  const g = cmd.optsWithGlobals() as GlobalOpts;
  if (!flags.topics) throw errors.usage('--qrels needs --topics FILE (your own topics); the bundled datasets carry their own gold passages');
  if (!flags.qrels) throw errors.usage('--topics needs --qrels FILE (TREC qrels "qid 0 docid rel")');
  const clash = DATASET_ONLY.filter((o) => cmd.getOptionValueSource(o) === 'cli');
  if (clash.includes('sweepFusion'))
    throw errors.usage(
      '--sweep-fusion tunes hybrid fusion on the Bar Exam QA dataset (--split); with --topics it is not available: evaluate each setting with --method hybrid --fusion/--weights/--rrf-k/--depth',
    );
  if (clash.length)
    throw errors.usage(
      `${clash.map(flagName).join(', ')} belong${clash.length === 1 ? 's' : ''} to the --dataset mode; with --topics use --metrics (e.g. recall@100,ndcg@10) and --hits`,
    );
  if (flags.hits < 1) throw errors.invalidInput('--hits', `expected a positive integer, got ${flags.hits}`);
  if (flags.method.length === 0) throw errors.invalidInput('--method', 'give at least one method');
  // Never into the index it reads (nor any index or run dir), never over the topics or qrels file.
  assertOutFiles(
    [
      { flag: '--out', file: flags.out, example: 'report.json' },
      ...runFileOutputs(flags.runFile, flags.method),
      { flag: '--plot', file: flags.plot, example: 'recall.svg' },
    ],
    [flags.index, flags.topics, flags.qrels],
  );
  checkAggregateFlags(flags);
  const evalOpts = trecEvalOptions(flags);
  const [
    { loadTopics, parseTopicsFormat, parseTopicFields },
    { loadQrels },
    { evalTopicsOnIndex },
    { formatTopicsReport },
    { recallCurve },
    { writeCurvePlot },
    { createProgress },
  ] = await Promise.all([
    import('../../../corpora/topics.js'),
    import('../../../corpora/qrels.js'),
    import('../../../eval/trec/eval-index.js'),
    import('../../../eval/trec/format.js'),
    import('../../../eval/plots/recall-curve.js'),
    import('../../../eval/plots/recall-plot-file.js'),
    import('../../../core/progress.js'),
  ]);
  const topics = await loadTopics(flags.topics, {
    format: flags.topicsFormat ? parseTopicsFormat(flags.topicsFormat) : undefined,
    ...(flags.topicField ? { fields: parseTopicFields(flags.topicField) } : {}),
  });
  const qrels = await loadQrels(flags.qrels);
  let bar: Progress | undefined;
  let barMethod = '';
  const curves: CurvePoint[] = [];
  const topicsFile = flags.topics;
  // Ctrl-C / SIGTERM: the search stops, a partial run file is removed, one line says what was kept, exit 130 / 143
  const report = await whileInterruptible('eval retrieval', { note: TOPICS_INTERRUPTED_NOTE }, async (signal) => {
    const r = await evalTopicsOnIndex({
      ...evalOpts,
      index: flags.index,
      methods: flags.method,
      topics,
      topicsFile,
      ...(flags.topicField ? { topicFields: parseTopicFields(flags.topicField) } : {}),
      qrels,
      qrelsFile: flags.qrels,
      depth: flags.hits,
      runFile: flags.runFile,
      retrieverOptions: retrieverOptions(flags, flags.method),
      signal,
      onRanked: (method, ranked) => {
        if (flags.plot)
          curves.push(
            ...recallCurve(method, ranked, flags.hits, {
              seed: flags.seed,
              iterations: flags.iterations, // the table's resamples: a band at k is the interval the table prints for Recall@k
            }),
          );
      },
      ties: flags.ties,
      threads: flags.threads ?? defaultBatchThreads(topics.length),
      ...(flags.aggregate !== undefined ? { aggregate: { strategy: flags.aggregate, docIdPattern: flags.docIdPattern, passageHits: flags.passageHits } } : {}),
      onProgress: (method, done, total) => {
        if (method !== barMethod) {
          bar?.stop();
          signal.throwIfAborted();
          barMethod = method;
          bar = createProgress(`eval ${method}`, { unit: 'topics' });
          bar.start(total);
        }
        bar!.update(done);
      },
    });
    bar?.stop();
    // a signal during the final writes lets them finish, then stops the command (exit 130 / 143)
    await finalWrites(signal, { runFile: flags.runFile, out: flags.out, plot: flags.plot }, async () => {
      if (flags.out) {
        await mkdir(dirname(flags.out), { recursive: true });
        await writeAtomic(flags.out, JSON.stringify(r, null, 2) + '\n');
      }
      if (flags.plot) {
        await mkdir(dirname(flags.plot), { recursive: true });
        await writeCurvePlot(
          flags.plot,
          curves,
          `Recall@k — ${basename(topicsFile)} (${r.results[0]?.n ?? 0} topics, relevant: grade ≥ ${flags.relevanceLevel}), 95% CI bands`,
        );
      }
    });
    return r;
  });
  output(g, report, () => formatTopicsReport(report, { perTopic: flags.perTopic }));
}
