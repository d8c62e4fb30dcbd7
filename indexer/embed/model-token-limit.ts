/**
 * The most tokens a model reads of one text, where lexcase knows it: use-lite's graph drops every
 * token past 128 (use-lite-tokenizer.ts USE_LITE_MAX_TOKENS), so a passage longer than that is
 * embedded from its first 128 tokens — about 75–100 words of legal English, fewer than the word
 * limit (256 by default) cuts at. add-dense.ts counts such passages, says how many, and records the
 * limit and the count in the manifest's dense section. A transformers embedder knows its own
 * tokenizer's limit (Embedder.tokenLimit, transformers.ts); an OpenAI-compatible server truncates
 * (or refuses) on terms lexcase does not see: undefined.
 */
import { truncateWords } from './batching.js';
import type { EmbedderProvider, EmbedderSpec } from './types.js';
import { sharedUseLiteTokenizer, USE_LITE_MAX_TOKENS } from './use-lite-tokenizer.js';
import { vectorSettings } from './vector-spec.js';

/** The model's token limit per text, where lexcase knows it (use-lite: 128). */
export function modelMaxTokens(provider: string): number | undefined {
  return provider === 'use-lite' ? USE_LITE_MAX_TOKENS : undefined;
}

/**
 * A test of whether the model reads a text (a passage's embed text, before the spec's word limit)
 * only in part: longer than modelMaxTokens after the word limit. Undefined where the limit is unknown.
 */
export function overModelMaxTokens(spec: Partial<EmbedderSpec>, provider: EmbedderProvider, model: string): ((text: string) => boolean) | undefined {
  const limit = modelMaxTokens(provider);
  if (limit === undefined) return undefined;
  const maxWords = Number(vectorSettings(spec, provider, model).maxWords);
  const tokenizer = sharedUseLiteTokenizer();
  return (text) => tokenizer.encode(truncateWords(text, maxWords)).length > limit;
}
