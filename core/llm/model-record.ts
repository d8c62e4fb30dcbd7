/**
 * config.json's `model` for a library run given a factory model and no `model` record: the redacted
 * settings the model was made with (core/config.ts publicLlmConfig), as `lexcase run` records the ones it
 * resolved. Before, `runMadExperiment({ llm })`, `runAcal({ llm })` and CASE's runner recorded `model:
 * null` (or none): the run dir named no model, and a resume with another model, endpoint or temperature
 * was refused by no config field. No LangChain here: the offline CASE run reads it too.
 */
import { publicLlmConfig, type LlmConfig } from '../config.js';

/** The config each model createChatModel returned was made from. */
const madeWith = new WeakMap<object, LlmConfig>();

export function rememberModelConfig(model: object, cfg: LlmConfig): void {
  madeWith.set(model, { ...cfg });
}

/** The public settings `model` was made with, when createChatModel made it; undefined for any other model. */
export function modelRecordOf(model: unknown): Record<string, unknown> | undefined {
  const cfg = model && typeof model === 'object' ? madeWith.get(model) : undefined;
  return cfg && (JSON.parse(JSON.stringify(publicLlmConfig(cfg))) as Record<string, unknown>);
}
