/** EMAR's inputs, claims and trace (Zhang et al., "From Logical Mismatch to Logical Alignment"). */
import type { Embedder } from '../../retrieval/types.js';
import type { PresentationRecord } from '../common/presentation-order.js';

/** What EMAR needs of an embedder: the provider interface of retrieval/embed. */
export type ClaimEmbedder = Pick<Embedder, 'id' | 'dimension' | 'embed'>;

/** One case: the evidence (fact pattern), the question (the claim to decide) and the options. */
export interface EmarCase {
  id: string;
  /** Evidence / fact pattern. */
  evidence: string;
  question: string;
  /** Answer options; option i has label LETTERS[i]. */
  choices: string[];
}

export interface Claim {
  /** Option letter the party argues for. */
  answer: string;
  /** The party's final claim, one or two sentences: what it asserts and why. */
  claim: string;
  /** Argument (proponent), critique (opponent) or response (proponent). */
  argument: string;
  /** Facts / evidence relied on. */
  evidence: string[];
}

export interface EmarRound {
  epoch: number;
  opponent: Claim;
  proponent: Claim;
  /** Cosine similarity of the two parties' claims after this round. */
  similarity: number;
  /** Whether both parties argue for the same option after this round. */
  sameStance?: boolean;
}

export type EmarStop = 'convergence' | 'max-depth';

export interface EmarResult {
  facts: string[];
  initial: Claim;
  rounds: EmarRound[];
  stop: EmarStop;
  judge: { established_facts: string[]; answer: string; rationale: string };
  /** Judge's option letter. */
  answer: string;
  /** The seeded presentation order used (which party the judge read first). */
  presentation: PresentationRecord[];
}
