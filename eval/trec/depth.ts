/** Hits retrieved per topic when the caller names no depth: Pyserini's --hits default, enough for Recall@1000 and MAP. */
export const DEFAULT_DEPTH = 1000;
