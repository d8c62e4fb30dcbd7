/**
 * The CASE advocate outside a run at `run case`'s sampling, for the library as the CLI gives it
 * (src/cli/llm-options.ts resolveLlm with paper EVIDENCE_PAPER): a model the caller made with
 * createChatModel(llm) from loadConfig()'s `llm`, with no temperature (or topP, maxTokens) set in the
 * config file or environment, runs at CASE's (temperature 0.3); a value the user set, even 0, wins,
 * and any other model is used as given (core/llm/factory.ts withPaperDefaults).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { withPaperDefaults } from '../../core/llm/factory.js';
import { applyPaperSampling, EVIDENCE_PAPER } from '../common/paper-settings.js';

export const atEvidenceSampling = (model: BaseChatModel): BaseChatModel =>
  withPaperDefaults(model, (llm, explicit) => applyPaperSampling(EVIDENCE_PAPER, llm, explicit).llm);
