/**
 * Before a run on a local model: load it (a missing package, binary or file stops the command
 * here, like the HTTP preflight) and say what the run config records about it — the file's
 * sha256 and size, its GGUF metadata (architecture, quantization, context length, chat template),
 * the runtime (node-llama-cpp and llama.cpp versions, CPU binary, threads, batch and context size)
 * and the sampling settings with the seed.
 */
import { createHash } from 'node:crypto';
import type { LlmConfig } from '../../config.js';
import { openLocalEngine } from './engine.js';
import { localSettings, withLocalModel } from './settings.js';

export async function prepareLocalModel(cfg: LlmConfig): Promise<{ llm: LlmConfig; info: Record<string, unknown> }> {
  const llm = withLocalModel(cfg);
  const engine = await openLocalEngine(localSettings(llm));
  const { chatTemplate, ...gguf } = engine.info.gguf;
  const info = {
    ...engine.info,
    gguf: { ...gguf, ...(chatTemplate !== undefined ? { chatTemplateSha256: createHash('sha256').update(chatTemplate).digest('hex'), chatTemplate } : {}) },
    sampling: JSON.parse(JSON.stringify({ temperature: llm.temperature, topP: llm.topP, maxTokens: llm.maxTokens, seed: llm.seed })) as Record<string, unknown>,
  };
  return { llm, info };
}
