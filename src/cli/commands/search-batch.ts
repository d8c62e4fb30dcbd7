/**
 * `lexcase search --topics FILE --index DIR --method M [-k K] --run-file OUT [--run-tag TAG]`: batch
 * search over a topics file (TSV `qid<TAB>text` or JSONL `{"id","text"}`), one TREC run file
 * (`qid Q0 docid rank score tag`), a progress bar on long topic sets, a summary (--json: an object).
 * Without -k a batch retrieves 1000 hits a topic (Pyserini's default), enough for recall@1000 and MAP.
 * With an approximate budget (--approx-postings) the run tag gets the suffix `-approx<share>`.
 * With `--aggregate maxp|firstp|sump` the run is per document: --passage-hits passages a topic are
 * retrieved, aggregated, the best k documents written, the tag suffixed `-<strategy>`.
 */
import type { Command } from 'commander';
import { parseTieMode, TIES_HELP, type TieMode } from '../../../eval/trec/anserini-ties.js';
import { TOPICS_FORMAT_HELP } from '../../../corpora/topics.js';
import { BATCH_THREADS_HELP, defaultBatchThreads } from '../../../eval/trec/batch-threads.js';
import { intOpt } from '../numeric-options.js';
import { errors } from '../../../core/errors.js';
import { output, type GlobalOpts } from '../action.js';
import { assertOutFiles } from '../out-file.js';
import { retrieverOptions, type RetrieverFlags } from './retriever-options.js';
import type { Rm3Retriever } from '../../../retrieval/rm3.js';
import { withRm3Ties } from '../../../retrieval/rm3-params.js';
import { approxFromFlags, approxTag, checkApproxMethod, describeApprox, type ApproxFlags } from './approx-options.js';
import { beyondDepthNote } from '../../../retrieval/ranking-depth.js';
import { log } from '../../../core/log.js';
import { addAggregateOptions, aggregationFromFlags, checkAggregateFlags, type AggregateFlags } from './aggregate-options.js';

export const BATCH_DEFAULT_K = 1000;

export interface BatchSearchFlags extends RetrieverFlags, ApproxFlags, AggregateFlags {
  index: string;
  method: string;
  k: number;
  topics?: string;
  topicsFormat?: string;
  topicField?: string;
  threads?: number;
  runFile?: string;
  runTag?: string;
  ties?: TieMode;
  explain?: boolean;
}

export function addBatchSearchOptions(cmd: Command): Command {
  return addAggregateOptions(cmd, { searches: true })
    .option(
      '--topics <file>',
      'batch mode: a topics file (TSV "qid<TAB>text", JSONL {"id","text"}, TREC SGML <top>…</top>, MS MARCO queries); writes --run-file; -k defaults to 1000 here',
    )
    .option('--topics-format <fmt>', TOPICS_FORMAT_HELP)
    .option(
      '--topic-field <field>',
      'TREC SGML topics: the query is this field: title (default, as Anserini) | description | narrative, or several joined by + (title+description)',
    )
    .option('--run-file <file>', 'batch mode: the TREC run file to write ("qid Q0 docid rank score tag")')
    .option('--threads <n>', `batch mode: ${BATCH_THREADS_HELP}`, intOpt('threads', { min: 1, max: 64 }))
    .option('--run-tag <tag>', 'batch mode: run tag, the 6th column (default lexcase-<method>)')
    .option('--ties <mode>', `batch mode: ${TIES_HELP}`, parseTieMode);
}

/** The options that only a batch (--topics) reads, as their attribute name → flag. */
const BATCH_ONLY: Readonly<Record<string, string>> = {
  topicsFormat: '--topics-format',
  topicField: '--topic-field',
  runFile: '--run-file',
  runTag: '--run-tag',
  threads: '--threads',
  ties: '--ties',
  aggregate: '--aggregate',
  docIdPattern: '--doc-id-pattern',
  passageHits: '--passage-hits',
};

/**
 * A single-query search refuses the batch-only flags the user gave (rather than print passage
 * hits and write no --run-file, with exit 0, as it did).
 */
export function refuseBatchOnlyFlags(cmd: Command): void {
  const given = Object.keys(BATCH_ONLY).filter((k) => cmd.getOptionValueSource(k) === 'cli');
  if (given.length)
    throw errors.usage(
      `${given.map((k) => BATCH_ONLY[k]).join(', ')} ${given.length === 1 ? 'works' : 'work'} with --topics FILE (batch mode), not with a single query`,
      'give --topics FILE --run-file OUT for a batch, or leave the flag out',
    );
}

export async function runBatchSearch(query: string | undefined, flags: BatchSearchFlags, cmd: Command): Promise<void> {
  const g = cmd.optsWithGlobals() as GlobalOpts;
  if (query !== undefined) throw errors.usage('give either a query or --topics FILE, not both');
  if (!flags.runFile) throw errors.usage('--topics needs --run-file OUT (the TREC run file to write)');
  if (flags.explain) throw errors.usage('--explain works on a single query, not with --topics');
  // Never into the index it reads (nor any index or run dir), never over the topics file.
  assertOutFiles([{ flag: '--run-file', file: flags.runFile, example: 'run.txt' }], [flags.index, flags.topics]);
  const k = cmd.getOptionValueSource('k') === 'default' ? BATCH_DEFAULT_K : flags.k;
  if (!Number.isInteger(k) || k < 1) throw errors.invalidInput('-k', `expected a positive integer, got ${k}`);
  const approx = approxFromFlags(flags);
  checkApproxMethod(approx, flags.method);
  checkAggregateFlags(flags);
  const [{ loadTopics, parseTopicsFormat, parseTopicFields }, { batchSearch }, { openRetriever }, { createProgress }] = await Promise.all([
    import('../../../corpora/topics.js'),
    import('../../../eval/trec/batch-search.js'),
    import('../../../retrieval/open.js'),
    import('../../../core/progress.js'),
  ]);
  const topics = await loadTopics(flags.topics!, {
    format: flags.topicsFormat ? parseTopicsFormat(flags.topicsFormat) : undefined,
    ...(flags.topicField ? { fields: parseTopicFields(flags.topicField) } : {}),
  });
  // RM3's feedback documents in the run's tie order (--ties anserini: Anserini's).
  const options = withRm3Ties(retrieverOptions(flags, [flags.method]), flags.ties);
  const retriever = await openRetriever(flags.index, flags.method, options);
  const threads = flags.threads ?? defaultBatchThreads(topics.length);
  const agg = await aggregationFromFlags(flags, flags.index, k);
  // Hits a topic beyond what the method ranks (hybrid: its depth): said before the run, and in the summary.
  const note = beyondDepthNote(retriever, agg?.passageHits ?? k, agg?.passageHits ?? k);
  if (note) log.warn(note);
  const bar = createProgress(`search ${retriever.method}`, { unit: 'topics' });
  bar.start(topics.length);
  let r;
  try {
    // An approximate run says so in its tag (6th column), also when the user named the tag; so does an aggregated one.
    const base = flags.runTag ?? (approx || agg ? `lexcase-${retriever.method}` : undefined);
    const tag = base === undefined ? undefined : `${approxTag(base, approx)}${agg ? `-${agg.aggregation.strategy.name}` : ''}`;
    const { aggregateHits } = await import('../../../eval/trec/aggregate/index.js');
    r = await batchSearch(retriever, topics, {
      k: agg?.passageHits ?? k,
      runFile: flags.runFile,
      tag,
      approx,
      ties: flags.ties,
      threads,
      source: { index: flags.index, method: flags.method, retrieverOptions: options },
      ...(agg ? { mapHits: (hits) => aggregateHits(hits, agg.aggregation), mappedK: k } : {}),
      onProgress: (d) => bar.update(d),
    });
  } finally {
    bar.stop();
    await agg?.close();
  }
  const { describeAggregation, ownDocumentsNote, passageHitsShortNote } = await import('../../../eval/trec/aggregate/index.js');
  const aggregate = agg ? describeAggregation(agg.aggregation, agg.passageHits) : undefined;
  const own = agg ? ownDocumentsNote(agg.aggregation) : undefined;
  if (own) log.warn(`search ${r.method}: ${own}`);
  const passageHitsShort = agg ? passageHitsShortNote(r.mappedShort, r.topics, k, agg.passageHits ?? k) : undefined;
  if (passageHitsShort) log.warn(`search ${r.method}: ${passageHitsShort}`);
  const rm3 = 'expand' in retriever ? { rm3: (retriever as Rm3Retriever).params } : {};
  const summary = {
    topics: r.topics,
    method: r.method,
    index: flags.index,
    k,
    ...rm3,
    ...(approx ? { approximate: approx } : {}),
    ...(aggregate ? { aggregate } : {}),
    runFile: flags.runFile,
    tag: r.tag,
    hits: r.hits,
    emptyTopics: r.empty.length,
    threads: r.threads,
    latency: r.latency,
    ...(note ? { note } : {}),
    ...(r.queriesCut ? { queriesCut: r.queriesCut } : {}),
    ...(r.querySource ? { querySource: r.querySource } : {}),
    ...(r.rm3NoFeedback ? { rm3NoFeedback: r.rm3NoFeedback } : {}),
    ...(passageHitsShort ? { passageHitsShort } : {}),
  };
  if (r.queriesCut) log.warn(`search ${r.method}: ${r.queriesCut}`);
  if (r.rm3NoFeedback) log.warn(`search ${r.method}: ${r.rm3NoFeedback}`);
  output(g, summary, () =>
    [
      `${r.topics} topics · ${r.method}${approx ? ` · ${describeApprox(approx)}` : ''}${aggregate ? ` · ${aggregate.strategy} over ${aggregate.passageHits} passages a topic (documents by ${aggregate.docIds})` : ''} · k ${k} → ${r.hits} run lines in ${flags.runFile} (tag ${r.tag})`,
      `search time ${(r.latency.wallMs / 1000).toFixed(2)} s on ${r.threads} ${r.threads === 1 ? 'thread' : 'threads'} (p50 ${r.latency.p50Ms.toFixed(1)} ms, p95 ${r.latency.p95Ms.toFixed(1)} ms a topic; the index open on every thread${r.threads > 1 ? `, after ${(r.latency.startMs / 1000).toFixed(2)} s starting the threads and opening it in each` : ''})`,
      ...(r.empty.length
        ? [
            `${r.empty.length} ${r.empty.length === 1 ? 'topic' : 'topics'} got no hit (e.g. ${r.empty.slice(0, 5).join(', ')}): all terms unknown or stopwords; such a topic has no run line, so trec_eval skips it unless -c (lexcase: --complete)`,
          ]
        : []),
      `evaluate it: lexcase eval run ${flags.runFile} --qrels QRELS`,
    ].join('\n'),
  );
}
