/** The sparse scorers every engine-level test runs: [method, open options] (the lucene scorer's two too). */
export const SPARSE_SCORERS = [
  ['bm25', {}],
  ['qld', {}],
  ['qld', { variant: 'lucene' }],
  ['bm25', { scorer: 'lucene' }],
  ['qld', { scorer: 'lucene' }],
] as const;
