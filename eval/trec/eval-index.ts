/**
 * `evalTopicsOnIndex`: a user's own topics and qrels straight from an index — batch search for each
 * method (batch-search.ts), each topic scored as its ranking comes (topic-scorer.ts) and the run file
 * written as it goes, then the trec_eval-semantics evaluation of `lexcase eval run` (evaluate.ts). Every method is scored over the same topics: a topic the search
 * answered with no hit is a topic of that method's run with nothing retrieved — it was searched, so
 * it scores 0 and stays in the mean (as trec_eval -c counts a topic missing from the run), and the
 * result names it (`noHits`). A TREC run file has no line for such a topic, so the numbers equal
 * `lexcase eval run` on the written run files where every topic got hits, and with `--complete`
 * where every qrels topic is among the topics.
 * The report names the corpus, the topics and the qrels files; it never mentions Bar Exam QA.
 * With `aggregate` the runs are per document (aggregate/: MaxP, FirstP, SumP): `passageHits`
 * passages a topic are retrieved and the best `depth` documents kept, for document-level qrels.
 */
import { withRm3Ties } from '../../retrieval/rm3-params.js';
import { readManifest } from '../../indexer/manifest.js';
import { shareOptions } from '../../retrieval/method-options.js';
import { openRetriever } from '../../retrieval/open.js';
import { VERSION } from '../../core/version.js';
import { runGitSha } from '../provenance.js';
import type { Topic } from '../../corpora/topics.js';
import type { Qrels } from '../../corpora/qrels.js';
import { runFileFor } from '../retrieval-eval-run-file-name.js';
import { checkOutputs, runFileOutputs } from '../output-files.js';
import { batchSearch, type BatchSearchOptions, type BatchSearchResult } from './batch-search.js';
import type { Retriever } from '../../retrieval/types.js';
import { cutoffsBeyondDepthWarning } from '../../retrieval/ranking-depth.js';
import { cutoffsPast } from './run-depth.js';
import { log } from '../../core/log.js';
import type { Measure } from './measures.js';
import type { TopicSet, TrecEvalOptions, TrecEvalResult } from './evaluate.js';
import { TopicScorer } from './topic-scorer.js';
import type { RankedQuery } from '../plots/recall-curve.js';
import { DEFAULT_DEPTH } from './depth.js';
import type { TieMode } from './anserini-ties.js';
import { openDocStore, type OpenedDocStore } from '../../indexer/docstore.js';
import { judgementsNotInIndex, type JudgedIds } from './qrels-in-index.js';
import {
  aggregateHits,
  describeAggregation,
  ownDocumentsNote,
  docMapOf,
  parseAggregate,
  PASSAGE_HITS_PER_DOC,
  passageHitsShortNote,
  type Aggregation,
} from './aggregate/index.js';

export interface TopicsIndexEvalOptions extends TrecEvalOptions {
  index: string;
  methods: string[];
  topics: readonly Topic[];
  topicsFile: string;
  /** The TREC topic fields whose text is the query (--topic-field), when given: recorded with the topics. */
  topicFields?: readonly string[];
  qrels: Qrels;
  qrelsFile: string;
  /** Hits retrieved per topic (default 1000). */
  depth?: number;
  /** TREC run file; with several methods "<name>.<method><ext>" per method. */
  runFile?: string;
  retrieverOptions?: Record<string, unknown>;
  /** 'anserini': Anserini's tie handling of run scores (anserini-ties.ts). */
  ties?: TieMode;
  /** Worker threads per method's batch search (batch-search.ts; default 1). */
  threads?: number;
  /** Document aggregation: maxp | firstp | sump, the passage → document rule (default: the doc_id field), passages retrieved a topic (default 10 × depth). */
  aggregate?: { strategy: string; docIdPattern?: string; passageHits?: number };
  onProgress?: (method: string, done: number, total: number) => void;
  /** Each method's evaluation and, per topic of its `perTopic`, the ranks of its relevant documents, as soon as it is scored (for a Recall@k plot, eval/plots/recall-curve.ts). */
  onRanked?: (method: string, ranked: RankedQuery[], result: TrecEvalResult) => void;
  signal?: AbortSignal;
}

export interface TopicsMethodResult extends TrecEvalResult {
  method: string;
  tag: string;
  latency: BatchSearchResult['latency'];
  /** Topics the search got no hit for (judged or not). */
  emptyTopics: number;
  /** Of those, the topics in the mean: searched, nothing retrieved, scored 0 (absent from the run file; `eval run` needs --complete to count them). */
  noHits: TopicSet;
  runFile?: string;
  /** The retriever's recorded config (Retriever.config: dense's query rule, hybrid's fusion), when it has one. */
  config?: Record<string, unknown>;
}

export interface TopicsRetrievalReport {
  kind: 'trec-retrieval-eval';
  lexcaseVersion: string;
  /** lexcase's commit (eval/provenance.ts runGitSha: '<sha>[-dirty]' of lexcase's own checkout or of the build of dist/ that runs, else 'unknown'). */
  gitSha: string;
  createdAt: string;
  index: string;
  corpus: { name: string; passages: number; checksum: string };
  /** n: topics in the file; evaluated: topics in the mean of every method (the same for all). */
  topics: { file: string; n: number; evaluated: number; fields?: readonly string[] };
  qrels: { file: string; topics: number; judgements: number };
  depth: number;
  /** Anserini's tie handling of run scores, when asked (--ties anserini): it moves the figures. */
  ties?: TieMode;
  /** What a reader must know to read a figure right: a metric cut deeper than the hits retrieved, a hybrid depth below them, relevant judgements naming ids not in the index (also logged as warnings). */
  warnings?: string[];
  /** Present when the runs are per document: the strategy, the document id rule, documents and passages a topic. */
  aggregate?: ReturnType<typeof describeAggregation>;
  results: TopicsMethodResult[];
}

export { DEFAULT_DEPTH };

/**
 * One method on a user's topics and qrels: batch search, each topic scored as its ranking comes
 * (topic-scorer.ts: scores as the run file stores them), then trec_eval's evaluation of those
 * scores — the figures `evaluateRun` gives on the whole run, without holding it (4,000 topics ×
 * 1,000 hits × 2 methods took 1.4 GB before). What `eval retrieval --topics` does for each method,
 * and what the explorer's retrieval-evaluation view does for a topics+qrels set, so the two give
 * the same figures. A topic searched with no hit is in the run with nothing retrieved: it scores 0
 * and is in the mean (`noHits` names them), so every method is evaluated over the same topics; only
 * a written run file cannot hold it. `scores` keeps the ranks of each topic's relevant documents
 * (`scores.ranked(result.perTopic)`: the Recall@k curve's input).
 */
export async function evalTopicsWith(
  retriever: Retriever,
  topics: readonly Topic[],
  qrels: Qrels,
  opts: BatchSearchOptions & TrecEvalOptions,
): Promise<{ batch: BatchSearchResult; result: TrecEvalResult; noHits: TopicSet; scores: TopicScorer }> {
  const scores = new TopicScorer(qrels, opts);
  const batch = await batchSearch(retriever, topics, {
    ...opts,
    keepRun: false,
    onTopic: (qid, docs) => {
      scores.add(qid, docs);
      opts.onTopic?.(qid, docs);
    },
  });
  const result = scores.result();
  const empty = new Set(batch.empty);
  const noHits: string[] = [];
  for (const t of result.perTopic)
    if (empty.has(t.qid)) {
      t.noHits = true;
      noHits.push(t.qid);
    }
  return { batch, result, noHits: { count: noHits.length, examples: noHits.slice(0, 10) }, scores };
}

export async function evalTopicsOnIndex(opts: TopicsIndexEvalOptions): Promise<TopicsRetrievalReport> {
  // Outputs never land in the index it reads (nor any index or run dir): eval/output-files.ts.
  checkOutputs(runFileOutputs('runFile', opts.runFile, opts.methods), [opts.index, opts.topicsFile, opts.qrelsFile]);
  const manifest = await readManifest(opts.index);
  const depth = opts.depth ?? DEFAULT_DEPTH;
  const strategy = opts.aggregate ? parseAggregate(opts.aggregate.strategy) : undefined;
  // RM3's feedback documents in the run's tie order (ties 'anserini': Anserini's).
  const retrieverOptions = withRm3Ties(opts.retrieverOptions, opts.ties);
  // Open all retrievers first, so a missing method fails before any work.
  const retrievers = [];
  const optionsOf = shareOptions(retrieverOptions, opts.methods, 'eval retrieval');
  for (const m of opts.methods) retrievers.push(await openRetriever(opts.index, m, optionsOf(m)));
  const warnings = depthWarnings(opts.measures, depth, retrievers, !!strategy);
  for (const w of warnings) log.warn(`eval retrieval: ${w}`);
  const docs = await openDocStore(opts.index);
  const results: TopicsMethodResult[] = [];
  let aggregation: Aggregation | undefined;
  const passageHits = opts.aggregate ? (opts.aggregate.passageHits ?? PASSAGE_HITS_PER_DOC * depth) : undefined;
  try {
    if (strategy) aggregation = { strategy, map: await docMapOf({ docs, pattern: opts.aggregate!.docIdPattern, index: opts.index }), k: depth };
    const unjudgeable = await judgementsNotInIndex(
      opts.qrels,
      opts.topics.map((t) => t.id),
      opts.relevanceLevel ?? 1,
      await judgedIdsOf(docs, aggregation),
      opts.index,
    );
    if (unjudgeable) {
      warnings.push(unjudgeable);
      log.warn(`eval retrieval: ${unjudgeable}`);
    }
    for (const [i, retriever] of retrievers.entries()) {
      const method = String(retriever.method);
      const runFile = opts.runFile ? runFileFor(opts.runFile, method, opts.methods.length > 1) : undefined;
      const source = { index: opts.index, method: opts.methods[i], retrieverOptions: optionsOf(opts.methods[i]) };
      const {
        batch: b,
        result: e,
        noHits,
        scores,
      } = await evalTopicsWith(retriever, opts.topics, opts.qrels, {
        ...opts,
        k: passageHits ?? depth,
        runFile,
        ...(aggregation ? { tag: `lexcase-${method}-${aggregation.strategy.name}`, mapHits: (hits) => aggregateHits(hits, aggregation!), mappedK: depth } : {}),
        source,
        onProgress: (d, t) => opts.onProgress?.(method, d, t),
      });
      opts.onRanked?.(method, scores.ranked(e.perTopic), e);
      if (b.queriesCut) warnings.push(`${method}: ${b.queriesCut}`);
      if (b.querySource) warnings.push(`${method}: ${b.querySource}`);
      if (b.rm3NoFeedback) {
        warnings.push(`${method}: ${b.rm3NoFeedback}`);
        log.warn(`eval retrieval ${method}: ${b.rm3NoFeedback}`);
      }
      // documents a topic fewer than the header's depth because the passage hits ran out of documents
      const short = passageHitsShortNote(b.mappedShort, b.topics, depth, passageHits ?? depth);
      if (short) {
        warnings.push(`${method}: ${short}`);
        log.warn(`eval retrieval ${method}: ${short}`);
      }
      results.push({
        method,
        tag: b.tag,
        ...e,
        latency: b.latency,
        emptyTopics: b.empty.length,
        noHits,
        ...(runFile ? { runFile } : {}),
        ...(retriever.config ? { config: retriever.config } : {}),
      });
    }
    // passages the rule gave no document id (each a document of its own): said, not left in the figures unseen
    const own = aggregation ? ownDocumentsNote(aggregation) : undefined;
    if (own) {
      warnings.push(own);
      log.warn(`eval retrieval: ${own}`);
    }
  } finally {
    await docs.close();
  }
  let judgements = 0;
  for (const j of opts.qrels.values()) judgements += j.size;
  return {
    kind: 'trec-retrieval-eval',
    lexcaseVersion: VERSION,
    gitSha: runGitSha().gitSha,
    createdAt: new Date().toISOString(),
    index: opts.index,
    corpus: { name: manifest.corpus.name, passages: manifest.corpus.passages, checksum: manifest.corpus.checksum },
    // the settings that change the query or the ranking, recorded (before, --topic-field description and --ties
    // anserini moved recall@1 0 → 1 with reports otherwise identical)
    topics: { file: opts.topicsFile, n: opts.topics.length, evaluated: results[0]?.n ?? 0, ...(opts.topicFields ? { fields: opts.topicFields } : {}) },
    ...(opts.ties && opts.ties !== 'none' ? { ties: opts.ties } : {}),
    qrels: { file: opts.qrelsFile, topics: opts.qrels.size, judgements },
    depth,
    ...(warnings.length ? { warnings } : {}),
    ...(aggregation ? { aggregate: describeAggregation(aggregation, passageHits) } : {}),
    results,
  };
}

/** The ids a run over `docs` can hold: passage ids, or with an aggregation its documents' ids (also the explorer's check of a topics+qrels set). */
export async function judgedIdsOf(docs: OpenedDocStore, aggregation: Aggregation | undefined): Promise<JudgedIds> {
  if (aggregation) {
    const documents = new Set<string>();
    for (let i = 0; i < docs.size; i++) documents.add(aggregation.map.docOf(docs.idAt(i)));
    return { unit: 'documents', has: (id) => documents.has(id) };
  }
  const forms = (id: string) => [id.normalize('NFC'), id.normalize('NFD')].filter((f) => f !== id);
  return {
    unit: 'passages',
    has: (id) => docs.indexOf(id) >= 0,
    otherForm: (id) => forms(id).find((f) => docs.indexOf(f) >= 0),
    documentIds: async () => new Set((await docs.docIds()).filter((d) => d !== '')),
  };
}

/**
 * A metric cut deeper than the hits retrieved counts only those (recall@2000 over 1,000 hits is
 * recall@1000, as trec_eval would compute it on this run); a hybrid ranks no deeper than its depth
 * (retrieval/ranking-depth.ts). Both are said, not silently computed.
 */
function depthWarnings(measures: readonly Measure[], depth: number, retrievers: readonly Retriever[], perDocument: boolean): string[] {
  const unit = perDocument ? 'documents' : 'hits';
  const past = cutoffsPast(measures, depth);
  const out: string[] = [];
  if (past) {
    const { over, most } = past;
    out.push(
      `${over.map((m) => m.name).join(', ')} ${over.length === 1 ? 'is' : 'are'} cut deeper than the ${depth} ${unit} retrieved a topic (--hits ${depth}): ${over.length === 1 ? 'it counts' : 'they count'} only those ${depth}; give --hits ${most} to rank ${most}`,
    );
  }
  for (const r of retrievers) {
    const d = r.rankingDepth;
    // each measure as deep as it reads this run: its cutoff, or the hits retrieved (map, mrr)
    const beyond = d === undefined ? [] : measures.filter((m) => Math.min(m.k ?? depth, depth) > d);
    if (d !== undefined && beyond.length) {
      const most = Math.max(...beyond.map((m) => Math.min(m.k ?? depth, depth)));
      const one = beyond.length === 1;
      out.push(
        `${beyond.map((m) => m.name).join(', ')} ${one ? 'is' : 'are'} beyond the ${r.method} depth ${d}: it fuses each component's top ${d} hits, so ${one ? 'that figure counts' : 'those figures count'} only passages a component ranks within its top ${d}; use --depth ${most} to rank ${most} fully`,
      );
      continue;
    }
    const w = cutoffsBeyondDepthWarning(r, [depth]);
    if (w) out.push(`--hits ${depth}: ${w}`);
  }
  return out;
}
