/**
 * The names of 3-ply's measures, one spelling each (docs/threeply.md's): the headline figures
 * (report.md's Figures, the explorer, /v1), the 3-ply table and the CLI all print these. Before,
 * the figures said "factor-utilisation recall" and the table "factor utilization recall".
 */
export const HALLUCINATION_ACCURACY = 'hallucination accuracy';
export const FACTOR_UTILIZATION_RECALL = 'factor utilization recall';
