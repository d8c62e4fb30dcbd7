/**
 * The index's text analyzer as retrieval exposes it to agents (agents reach an index only through
 * retrieval/): the same tokens a query is scored on, for cheap lexical checks of claims.
 */
export { createAnalyzer, type Analyzer } from '../indexer/analyzer.js';
