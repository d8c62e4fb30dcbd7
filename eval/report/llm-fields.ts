/**
 * The LLM settings report.md's Run section names (config.json keeps them in objects, which the
 * section's one-line fields leave out): the model, its provider, the endpoint without credentials or
 * query values (core/llm/endpoint.ts redactedEndpoint), the local model file's name, the
 * temperature, top_p, max_tokens and seed sent, the structured-output mode, and the short form of the prompts' sha256.
 */
import { basename } from 'node:path';
import { redactedEndpoint } from '../../core/llm/endpoint.js';
import { providerOf, type LlmProvider } from '../../core/llm/providers.js';

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** `[label, value]` lines for a run config's `model` and `prompts` objects (none for a run without them). */
export function llmFields(config: Record<string, unknown>): [string, unknown][] {
  const out: [string, unknown][] = [];
  const m = config.model;
  if (isObject(m)) {
    const name = str(m.model) ?? str(m.name);
    if (name) out.push(['model', name]);
    const baseUrl = str(m.baseUrl);
    const modelFile = str(m.modelFile);
    out.push(['provider', providerOf({ provider: str(m.provider) as LlmProvider | undefined, baseUrl, modelFile })]);
    if (baseUrl) out.push(['endpoint', redactedEndpoint(baseUrl).endpoint]);
    if (modelFile) out.push(['model file', basename(modelFile)]);
    if (typeof m.temperature === 'number') out.push(['temperature', m.temperature]);
    // the other sampling settings sent on every request, under names of their own: a run's top-level
    // `maxTokens` (CASE: the advocate's token budget) and `seed` (the run's) are other settings (helper audit)
    if (typeof m.topP === 'number') out.push(['top_p (each request)', m.topP]);
    if (typeof m.maxTokens === 'number') out.push(['max_tokens (each request)', m.maxTokens]);
    if (typeof m.seed === 'number') out.push(['LLM seed (each request)', m.seed]);
    if (str(m.structuredOutput)) out.push(['structured output', m.structuredOutput]);
  }
  const sha = isObject(config.prompts) ? str(config.prompts.sha256) : undefined;
  if (sha) out.push(['prompts sha256', `${sha.slice(0, 12)}…`]);
  return out;
}
