/** The one passage model and one question model every loader produces. */

export interface Passage {
  id: string;
  text: string;
  title?: string;
  /** Id of the document the passage was cut from (e.g. an opinion), when known. */
  docId?: string;
  /** Where the passage came from, e.g. "barexam_qa", "legal_corpus/scotus", or a file name. */
  source: string;
  /**
   * Further JSON fields kept at build (`index build --keep-fields`, a LangChain Document's metadata
   * through `LexcaseRetriever.fromDocuments`): stored in the doc store, returned in retriever
   * metadata and matched by its filter. Never indexed for search.
   */
  meta?: Record<string, unknown>;
}

export interface Question {
  id: string;
  /** Fact pattern / stem that precedes the question (may be empty). */
  prompt: string;
  /** The question itself. */
  question: string;
  /** Answer options, in order; option i has label LETTERS[i]. Empty for open questions. */
  choices: string[];
  /** Gold answer as an option label ("A".."J") or, for open tasks, the gold text. */
  answer: string;
  /** Gold passage ids (empty when the dataset has none). */
  goldPassageIds: string[];
  /** Free-form extras (subject, original row index, ...). Never shown to a model unless a system says so. */
  meta?: Record<string, unknown>;
}

/** A LegalBench-style classification example. */
export interface TaskExample {
  id: string;
  text: string;
  label: string;
  meta?: Record<string, unknown>;
}

export const LETTERS = 'ABCDEFGHIJ'.split('');

export type Split = 'train' | 'val' | 'test' | 'all';
