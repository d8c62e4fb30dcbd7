/**
 * `lexcase eval run RUN --qrels QRELS [--metrics recall@10,ndcg@10,…] [--compare RUN2] [--complete]
 * [--relevance-level N] [--skip-no-relevant] [--per-topic]`: evaluate any TREC run file with
 * trec_eval's semantics (eval/trec/), means with their named 95% intervals (eval/stats), per-topic
 * values in --json, and a paired comparison B − A with a second run (paired-bootstrap interval,
 * exact test).
 */
import type { Command } from 'commander';
import type { LoadedRun } from '../../../eval/trec/run.js';
import { action, output, parseIntOpt, type GlobalOpts } from '../action.js';
import { evalCommand } from './eval-retrieval.js';
import { addTrecEvalOptions, trecEvalOptions, type TrecEvalFlags } from './trec-eval-options.js';

interface EvalRunFlags extends TrecEvalFlags {
  compare?: string;
}

const label = (r: LoadedRun) => `${r.file}${r.tags.length === 1 ? ` (${r.tags[0]})` : ''}`;

export function register(program: Command): void {
  addTrecEvalOptions(
    evalCommand(program)
      .command('run')
      .description('evaluate a TREC run file against TREC qrels with trec_eval semantics (Recall@k, nDCG@k, MRR@k, MAP, P@k; 95% bootstrap CIs)')
      .argument('<run>', 'TREC run file: "qid Q0 docid rank score tag" (the rank column is ignored, as in trec_eval)'),
    { qrelsRequired: true },
  )
    .option('--compare <run2>', 'a second run on the same topics: B − A (run2 minus RUN) per metric, 95% paired-bootstrap interval, exact paired test')
    .option('--iterations <n>', 'bootstrap resamples', parseIntOpt('iterations'), 2000)
    .option('--seed <n>', 'bootstrap seed', parseIntOpt('seed'), 13)
    .action(
      action(async (runFile: string, flags: EvalRunFlags, cmd: Command) => {
        const g = cmd.optsWithGlobals() as GlobalOpts;
        const opts = trecEvalOptions(flags);
        const [{ loadQrels }, { loadTrecRun }, { evaluateRun }, { compareTrecEvals }, { comparisonTable, perTopicTable, topicLines, trecTable }] = await Promise.all([
          import('../../../corpora/qrels.js'),
          import('../../../eval/trec/run.js'),
          import('../../../eval/trec/evaluate.js'),
          import('../../../eval/trec/compare.js'),
          import('../../../eval/trec/format.js'),
        ]);
        const qrels = await loadQrels(flags.qrels);
        const A = await loadTrecRun(runFile);
        const a = evaluateRun(A.run, qrels, opts);
        const B = flags.compare ? await loadTrecRun(flags.compare) : undefined;
        const b = B ? evaluateRun(B.run, qrels, opts) : undefined;
        const comparison = b ? compareTrecEvals(a, b) : undefined;
        const json = {
          kind: 'trec-eval',
          qrels: flags.qrels,
          run: { file: A.file, tags: A.tags, ...a },
          ...(B && b ? { compare: { file: B.file, tags: B.tags, ...b }, comparison } : {}),
        };
        output(g, json, () =>
          [
            `Qrels: ${flags.qrels}`,
            ...(B && b ? [`Run A, ${label(A)}:`, ...topicLines(a).slice(0, -1), `Run B, ${label(B)}:`, ...topicLines(b)] : topicLines(a)),
            '',
            trecTable([{ label: label(A), result: a }, ...(B && b ? [{ label: label(B), result: b }] : [])]),
            ...(flags.perTopic ? ['', perTopicTable(a), ...(b ? ['', perTopicTable(b)] : [])] : []),
            ...(comparison ? ['', comparisonTable(comparison, label(A), label(B!))] : []),
          ].join('\n'),
        );
      }),
    );
}
