/**
 * The index's text analyzer as retrieval exposes it to agents (agents reach an index only through
 * retrieval/): the same tokens a query is scored on (and its stopword list), for cheap lexical checks of claims
 * and key-term queries.
 */
export { createAnalyzer, englishStopwordList, type Analyzer } from '../indexer/analyzer.js';
