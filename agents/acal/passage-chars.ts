/**
 * Characters of each evidence passage an ACAL agent or the RAG baseline is shown (`--passage-chars`,
 * recorded in config.json as `passageChars`). The paper gives no passage length (§4.2: the top-k,
 * k = 5, most relevant "chunks"); lexcase has shown 700 since its first ACAL release.
 */
export const DEFAULT_PASSAGE_CHARS = 700;
