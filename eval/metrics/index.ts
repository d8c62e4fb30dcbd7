/** Evaluation metrics, one file per family. */
export { recallAtK, hitAtK } from './recall.js';
export { reciprocalRank, firstRelevantRank } from './reciprocal-rank.js';
export { ndcgAtK } from './ndcg.js';
export { accuracy, mean } from './accuracy.js';
export { classificationReport, macroF1, type ClassScores, type ClassificationReport } from './classification.js';
export { isFailed, failedCount, scoredPrediction, correctFlags } from './failures.js';
