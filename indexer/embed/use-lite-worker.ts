/** Worker thread for the use-lite embedder: loads the bundled model once, embeds batches on request. */
import { parentPort } from 'node:worker_threads';
import { loadUseLiteModel } from './use-lite-model.js';

const port = parentPort!;
const ready = loadUseLiteModel();

port.on('message', async (msg: { id: number; texts: string[] }) => {
  try {
    const model = await ready;
    const vecs = await model.embed(msg.texts);
    const out = vecs.map((v) => Float32Array.from(v));
    port.postMessage({ id: msg.id, vectors: out }, out.map((v) => v.buffer));
  } catch (e) {
    port.postMessage({ id: msg.id, error: (e as Error).message ?? String(e) });
  }
});
