/**
 * What a CASE run with an LLM needs beyond the offline path (the advocates' tool loops, the jury and
 * the retrieval tools, all on LangChain), in one module that agents/case/experiment.ts imports only
 * for such a run (and agents/case/find-evidence.ts with a model), so `lexcase run case --offline` starts without LangChain.
 */
export { createCase } from './index.js';
export { runAdvocate } from './advocate.js';
export { selectTools } from './select-tools.js';
export { createRetrievalTools } from '../../retrieval/tools/index.js';
