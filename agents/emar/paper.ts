/** EMAR's paper settings and datasets, read by its plugin (the list entry and its command's flags) and its command run (cli-run.ts). */
import type { PaperSampling } from '../../eval/systems.js';

/** The datasets `lexcase run emar --dataset` reads (the paper's LFPBench is not available). */
export const EMAR_DATASETS = ['barexam', 'hearsay'] as const;

/** EMAR (paper 004), "Baselines": the sampling settings every model ran at. */
export const EMAR_PAPER: PaperSampling = {
  temperature: 0.1,
  topP: 0.9,
  maxTokens: 2048,
  source: 'EMAR (paper 004), Experiment, "Baselines": all models at temperature 0.1, top-p 0.9, max_tokens 2048',
};
