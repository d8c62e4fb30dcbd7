export { createStandardPromptingSystem } from './standard-prompting.js';
export { createChainOfThoughtSystem } from './chain-of-thought.js';
export { createSingleAgentRagSystem } from './single-agent-rag.js';
