export * from './specs.js';
export { renderSvg } from './render-svg.js';
export { recallCurve, queryRecallAt, CURVE_KS, type RankedQuery } from './recall-curve.js';
export { confidenceBins, unlabelledNote } from './confidence-bins.js';
export { roundAccuracy } from './round-accuracy.js';
