/** Recall@k cutoffs of a retrieval evaluation when the caller names none (a module of its own: the CLI help reads it). */
export const DEFAULT_KS = [1, 10, 100, 1000];
