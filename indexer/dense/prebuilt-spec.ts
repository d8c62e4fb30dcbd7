/** The embedder spec the shipped prebuilt vectors were made with (the demo's dense spec; prebuilt-dense.ts loads them). */
import type { EmbedderSpec } from '../embed/types.js';

export const PREBUILT_DENSE_SPEC: EmbedderSpec = { provider: 'use-lite', maxWords: 128 };
