/**
 * A corpus on which one RM3 topic gains no feedback term (retrieval/rm3-no-feedback.ts): 30
 * passages each with a term of its own (in 1 of 34 documents: a candidate feedback term) and 4
 * "filler" passages holding only terms in more than 10 % of the documents ("filler" 4 of 34,
 * "shared" all, "even"/"odd" half), which Anserini's rule never takes. The topic "filler" finds only
 * those four; "uniq3 shared" and "shared even" gain terms.
 */
export const FILLER_PASSAGES: readonly { id: string; text: string }[] = [
  ...Array.from({ length: 30 }, (_, i) => ({ id: `p${String(i).padStart(2, '0')}`, text: `shared ${i % 2 ? 'odd' : 'even'} uniq${i}` })),
  ...Array.from({ length: 4 }, (_, i) => ({ id: `f${i}`, text: `filler shared ${i % 2 ? 'odd' : 'even'} filler` })),
];

/** Topics over FILLER_PASSAGES: only t-filler gains no feedback term. */
export const FILLER_TOPICS: readonly { id: string; text: string }[] = [
  { id: 't-uniq', text: 'uniq3 shared' },
  { id: 't-filler', text: 'filler' },
  { id: 't-shared', text: 'shared even' },
];

/** FILLER_PASSAGES as a JSONL file's text. */
export const fillerJsonl = (): string => `${FILLER_PASSAGES.map((p) => JSON.stringify(p)).join('\n')}\n`;
