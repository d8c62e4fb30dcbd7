/** 3-ply's paper settings, read by its plugin (the list entry) and its command run (cli-run.ts: the generation limit). */
import type { PaperSampling } from '../../eval/systems.js';

/** Reflective 3-ply (paper 000) §4.1. */
export const THREEPLY_PAPER: PaperSampling = {
  topP: 1,
  maxTokens: 1000,
  source: '3-ply (paper 000) §4.1: max_tokens 1000, top_p 1 (no generation temperature given); evaluator at temperature 0',
};

/** The Factor Distiller's (the evaluator's) temperature, whatever llm.temperature is: the paper's (§4.1). */
export const EVALUATOR_TEMPERATURE = 0;
