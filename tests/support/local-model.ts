/**
 * For tests of the `local` LLM provider (core/llm/local/): why the real provider cannot run here
 * (undefined when it can), and a factory model on a tiny GGUF written at test time
 * (tiny-gguf.ts). node-llama-cpp is an optional dependency: where it is absent (`npm ci
 * --omit=optional`) or no prebuilt binary fits the machine, the tests that need inference skip
 * and say why in their name; the tests of the errors a user then sees run everywhere.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { cpuLlama } from '../../core/llm/local/runtime.js';
import type { UsageMeter } from '../../core/llm/usage.js';
import { ADVOCATE_STEP_FAILURES } from '../../agents/case/types.js';

/** Why the local provider cannot run on this machine (the LLM_UNAVAILABLE message), or undefined. */
export async function localModelUnavailable(): Promise<string | undefined> {
  try {
    await cpuLlama();
    return undefined;
  } catch (e) {
    return (e as Error).message.split('\n')[0];
  }
}

/** A factory model on the GGUF `file`: one thread, an 8,192-token context (the default), no cache, no retries. */
export function localModelOn(file: string, o: { usage?: UsageMeter; extra?: Record<string, unknown> } = {}): BaseChatModel {
  const cfg = llmConfigSchema.parse({ provider: 'local', modelFile: file, threads: 1, cacheDir: false, maxRetries: 0, ...o.extra });
  return createChatModel(cfg, { usage: o.usage });
}

/**
 * Failed steps a schema-valid reply can legitimately cause, which a run records (not a structured
 * output failure): a CASE advocate's final reply with no selection while no tool returned a passage
 * (not its failed compile call, "advocate evidence selection", which is one), and an ACAL argument
 * with empty text (the strict schema subset has no minLength). The contract-fuzz and local-model
 * tests allow these and no other failed step.
 */
export const SCHEMA_VALID_FAILURES = [ADVOCATE_STEP_FAILURES['no passages'], 'argument with empty text'] as const;
