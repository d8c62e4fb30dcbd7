/** The trec_eval options shared by `eval run` and `eval retrieval --topics` (eval/trec/ does the work). */
import { Option, type Command } from 'commander';
import type { TrecEvalOptions } from '../../../eval/trec/evaluate.js';
import { DEFAULT_METRICS, METRIC_HELP, parseMeasures } from '../../../eval/trec/measures.js';
import { parseIntOpt, parseListOpt } from '../action.js';

export interface TrecEvalFlags {
  qrels: string;
  metrics: string[];
  complete?: boolean;
  relevanceLevel: number;
  skipNoRelevant?: boolean;
  perTopic?: boolean;
  iterations: number;
  seed: number;
}

export function addTrecEvalOptions(cmd: Command, opts: { qrelsRequired: boolean }): Command {
  const qrels = '--qrels <file>';
  const qrelsHelp = 'TREC qrels "qid 0 docid rel" (graded: rel ≥ 1 relevant, 0 judged non-relevant)';
  return (opts.qrelsRequired ? cmd.requiredOption(qrels, qrelsHelp) : cmd.option(qrels, `${qrelsHelp}; with --topics`))
    .addOption(new Option('--metrics <list>', `comma list: ${METRIC_HELP}`).argParser(parseListOpt).default(DEFAULT_METRICS, DEFAULT_METRICS.join(',')))
    .option('--complete', 'like trec_eval -c: qrels topics missing from the run count as 0 (default: skipped, as trec_eval does)')
    .option('--relevance-level <n>', 'grade at or above which a document is relevant (trec_eval -l)', parseIntOpt('relevance-level'), 1)
    .option('--skip-no-relevant', 'leave out topics whose judgements have no relevant document (trec_eval scores them 0)')
    .option('--per-topic', 'also print one row per topic (like trec_eval -q)');
}

export function trecEvalOptions(flags: TrecEvalFlags): TrecEvalOptions {
  return {
    measures: parseMeasures(flags.metrics),
    complete: flags.complete,
    relevanceLevel: flags.relevanceLevel,
    skipNoRelevant: flags.skipNoRelevant,
    iterations: flags.iterations,
    seed: flags.seed,
  };
}
