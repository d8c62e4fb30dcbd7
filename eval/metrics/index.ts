/** Evaluation metrics, one file per family. */
export { recallAtK, hitAtK } from './recall.js';
export { reciprocalRank, firstRelevantRank } from './reciprocal-rank.js';
export { ndcgAtK } from './ndcg.js';
export { accuracy, mean } from './accuracy.js';
export { classificationReport, type ClassScores, type ClassificationReport } from './classification.js';
export { macroF1, macroLabels } from './macro.js';
export { isFailed, failedCount, scoredPrediction, correctFlags } from './failures.js';
