/** An embedder from a provider spec, for the layers above (agents reach the indexer only through retrieval/): EMAR's convergence test embeds claims with it. */
export { createEmbedder, parseEmbedderSpec } from '../indexer/embed/create-embedder.js';
