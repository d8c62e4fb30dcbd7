/** The three sparse scorers every engine-level test runs: [method, open options]. */
export const SPARSE_SCORERS = [
  ['bm25', {}],
  ['qld', {}],
  ['qld', { variant: 'lucene' }],
] as const;
