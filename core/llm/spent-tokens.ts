/**
 * Tokens a reply spent on the endpoint, as per-step tallies count them (CASE's stages). A reply the
 * response cache served (chat-openai.ts marks it in response_metadata, which is never sent nor part
 * of a cache key) spent none, though its usage_metadata keeps what the server once reported: token
 * budgets count the conversation's size from usage_metadata, the same on a live and a cached run;
 * what a run spent counts only what the endpoint answered. No LangChain import: offline runs load it.
 */

/** The response_metadata key of a reply served from the response cache (or replayed as a cache hit). */
export const CACHED_MARK = 'lexcase_cached';

type ReplyLike = { usage_metadata?: { total_tokens?: number }; response_metadata?: Record<string, unknown> };

/** usage_metadata.total_tokens of a reply message, 0 when it came from the response cache. */
export function spentTokens(message: unknown): number {
  const m = message as ReplyLike | undefined;
  if (m?.response_metadata?.[CACHED_MARK] === true) return 0;
  return m?.usage_metadata?.total_tokens ?? 0;
}
