export { createBaseline, BASELINE_MODES, ragMethod, type BaselineMode } from './baseline-system.js';
export { mcqPrompt, answerSchema, answerMcq, MCQ_SYSTEM } from './mcq-prompt.js';
