/**
 * `lexcase eval run RUN --qrels QRELS [--metrics recall@10,ndcg@10,…] [--compare RUN2] [--complete]
 * [--relevance-level N] [--skip-no-relevant] [--per-topic]`: evaluate any TREC run file with
 * trec_eval's semantics (eval/trec/), means with their named 95% intervals (eval/stats), per-topic
 * values in --json, and a paired comparison B − A with a second run (paired-bootstrap interval,
 * exact test). `--aggregate maxp|firstp|sump` evaluates a passage run per document against
 * document-level qrels (documents by --doc-id-pattern or the doc_id field of --index DIR;
 * eval/trec/aggregate/).
 */
import type { Command } from 'commander';
import type { LoadedRun } from '../../../eval/trec/run.js';
import { resamplesOpt, seedOpt } from '../numeric-options.js';
import { action, output, type GlobalOpts } from '../action.js';
import { evalCommand } from './eval-retrieval.js';
import { addTrecEvalOptions, trecEvalOptions, type TrecEvalFlags } from './trec-eval-options.js';
import { addAggregateOptions, aggregationFromFlags, checkAggregateFlags, type AggregateFlags } from './aggregate-options.js';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { exitOnInterrupt } from '../run-interrupt.js';

interface EvalRunFlags extends TrecEvalFlags, AggregateFlags {
  compare?: string;
  index?: string;
}

const label = (r: LoadedRun) => `${r.file}${r.tags.length === 1 ? ` (${r.tags[0]})` : ''}`;

export function register(program: Command): void {
  addTrecEvalOptions(
    addAggregateOptions(
      evalCommand(program)
        .command('run')
        .description('evaluate a TREC run file against TREC qrels with trec_eval semantics (Recall@k, nDCG@k, MRR@k, MAP, P@k; 95% bootstrap CIs)')
        .argument('<run>', 'TREC run file: "qid Q0 docid rank score tag" (the rank column is ignored, as in trec_eval)'),
      { searches: false },
    ).option('--index <dir>', 'with --aggregate: the index the run was searched on (its doc_id field gives the documents; firstp needs it)'),
    { qrelsRequired: true },
  )
    .option('--compare <run2>', 'a second run on the same topics: B − A (run2 minus RUN) per metric, 95% paired-bootstrap interval, exact paired test')
    .option('--iterations <n>', 'bootstrap resamples', resamplesOpt(), 2000)
    .option('--seed <n>', 'bootstrap seed', seedOpt('seed'), 13)
    .action(
      action(async (runFile: string, flags: EvalRunFlags, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        // Ctrl-C / SIGTERM: one message (nothing is written) and exit 130 / 143, as `run <system>` (run-interrupt.ts)
        const interrupt = exitOnInterrupt('eval run', process.argv.slice(2));
        try {
          await evalRun(runFile, flags, g);
        } finally {
          interrupt.dispose();
        }
      }),
    );
}

async function evalRun(runFile: string, flags: EvalRunFlags, g: GlobalOpts): Promise<void> {
  checkAggregateFlags(flags);
  if (flags.index !== undefined && flags.aggregate === undefined) throw errors.usage('--index works with --aggregate (it gives the passage → document rule)');
  const opts = trecEvalOptions(flags);
  const [{ loadQrels }, { loadTrecRun, runTagsWarning }, { evaluateRun }, { compareTrecEvals }, { comparisonTable, perTopicTable, topicLines, trecTable }] =
    await Promise.all([
      import('../../../corpora/qrels.js'),
      import('../../../eval/trec/run.js'),
      import('../../../eval/trec/evaluate.js'),
      import('../../../eval/trec/compare.js'),
      import('../../../eval/trec/format.js'),
    ]);
  const qrels = await loadQrels(flags.qrels);
  const A = await loadTrecRun(runFile);
  const B = flags.compare ? await loadTrecRun(flags.compare) : undefined;
  // Per document: each passage run aggregated by the same strategy and rule.
  const agg = await aggregationFromFlags(flags, flags.index, undefined);
  let aggregate: ReturnType<typeof import('../../../eval/trec/aggregate/index.js').describeAggregation> | undefined;
  // the passage runs as read: whether they were cut is a fact of theirs, not of the documents they make
  const passages = { A: A.run, B: B?.run };
  try {
    if (agg) {
      const { aggregateRun, describeAggregation, ownDocumentsNote } = await import('../../../eval/trec/aggregate/index.js');
      A.run = aggregateRun(A.run, agg.aggregation);
      if (B) B.run = aggregateRun(B.run, agg.aggregation);
      aggregate = describeAggregation(agg.aggregation);
      const own = ownDocumentsNote(agg.aggregation);
      if (own) log.warn(`eval run: ${own}`);
    }
  } finally {
    await agg?.close();
  }
  const a = evaluateRun(A.run, qrels, opts);
  const b = B ? evaluateRun(B.run, qrels, opts) : undefined;
  const comparison = b ? compareTrecEvals(a, b) : undefined;
  // a metric cut deeper than the run ranks counts only what it ranks (trec_eval's figure), said; per document,
  // deeper than the documents a cut passage run makes
  const { cutsPastRunDepth, cutsPastAggregatedRunDepth } = await import('../../../eval/trec/run-depth.js');
  const cutWarning = (r: LoadedRun, asRead: LoadedRun['run'], what: string) =>
    aggregate ? cutsPastAggregatedRunDepth(asRead, r.run, opts.measures, what, aggregate.strategy) : cutsPastRunDepth(r.run, opts.measures, what);
  const warnings = [
    cutWarning(A, passages.A, B ? `run A (${A.file})` : `the run (${A.file})`),
    B ? cutWarning(B, passages.B!, `run B (${B.file})`) : undefined,
    runTagsWarning(A, B ? `run A (${A.file})` : `the run (${A.file})`),
    B ? runTagsWarning(B, `run B (${B.file})`) : undefined,
  ].filter((w): w is string => w !== undefined);
  for (const w of warnings) log.warn(`eval run: ${w}`);
  const json = {
    kind: 'trec-eval',
    qrels: flags.qrels,
    ...(warnings.length ? { warnings } : {}),
    ...(aggregate ? { aggregate } : {}),
    run: { file: A.file, tags: A.tags, ...a },
    ...(B && b ? { compare: { file: B.file, tags: B.tags, ...b }, comparison } : {}),
  };
  output(g, json, () =>
    [
      `Qrels: ${flags.qrels}`,
      ...(aggregate ? [`Per document: ${aggregate.strategy} of the run's passages, documents by ${aggregate.docIds}; the qrels judge documents.`] : []),
      ...(B && b ? [`Run A, ${label(A)}:`, ...topicLines(a).slice(0, -1), `Run B, ${label(B)}:`, ...topicLines(b)] : topicLines(a)),
      ...warnings.map((w) => `**Warning:** ${w}.`),
      '',
      trecTable([{ label: label(A), result: a }, ...(B && b ? [{ label: label(B), result: b }] : [])]),
      ...(flags.perTopic ? ['', perTopicTable(a), ...(b ? ['', perTopicTable(b)] : [])] : []),
      ...(comparison ? ['', comparisonTable(comparison, label(A), label(B!))] : []),
    ].join('\n'),
  );
}
