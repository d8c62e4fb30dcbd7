/** A user's own test collection, trec_eval style: topics, qrels, TREC runs, batch search, evaluation. */
export {
  loadTopics,
  topicsFormatOf,
  parseTopicsFormat,
  sniffTopicsFormat,
  parseTopicFields,
  TOPICS_FORMATS,
  TOPIC_FIELDS,
  type Topic,
  type TopicsFormat,
  type TopicField,
  type LoadTopicsOptions,
} from '../../corpora/topics.js';
export { loadQrels, parseQrelsLine, numRelevant, type Qrels } from '../../corpora/qrels.js';
export { loadTrecRun, writtenScore, runDocsOfHits, type TrecRun, type RunDoc, type LoadedRun } from './run.js';
export { trecOrder, trecCompare } from './order.js';
export { parseMeasure, parseMeasures, measureValue, DEFAULT_METRICS, type Measure, type MeasureKind, type TopicJudgements } from './measures.js';
export { evaluateRun, type TrecEvalOptions, type TrecEvalResult, type TopicScores } from './evaluate.js';
export { compareTrecEvals, type TrecComparison } from './compare.js';
export { batchSearch, type BatchSearchOptions, type BatchSearchResult } from './batch-search.js';
export { evalTopicsOnIndex, DEFAULT_DEPTH, type TopicsIndexEvalOptions, type TopicsRetrievalReport, type TopicsMethodResult } from './eval-index.js';
export { formatTopicsReport, trecTable, perTopicTable, comparisonTable, topicLines } from './format.js';
export { anseriniTies, applyTies, TIE_MODES, type TieMode } from './anserini-ties.js';
export { locateCacm, readCacmDocuments, readCacmTopics, htmlText, CACM_SOURCES, type CacmFiles } from '../../corpora/cacm.js';
export {
  AGGREGATIONS,
  AGGREGATION_NAMES,
  PASSAGE_HITS_PER_DOC,
  aggregateHits,
  aggregateRun,
  describeAggregation,
  docMapOf,
  parseAggregate,
  parseDocIdPattern,
  type Aggregation,
  type AggregationStrategy,
  type DocMap,
  type PassageOfDoc,
} from './aggregate/index.js';
