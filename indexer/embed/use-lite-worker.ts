/** Worker thread for the use-lite embedder: loads the bundled model once (engine from workerData), embeds batches on request. */
import { parentPort, workerData } from 'node:worker_threads';
import { loadUseLiteModel, type UseLiteEngine } from './use-lite-model.js';

const port = parentPort!;
const ready = loadUseLiteModel((workerData as { engine?: UseLiteEngine } | undefined)?.engine ?? 'direct');

port.on('message', async (msg: { id: number; texts: string[] }) => {
  try {
    const model = await ready;
    const out = await model.embed(msg.texts);
    port.postMessage(
      { id: msg.id, vectors: out },
      out.map((v) => v.buffer as ArrayBuffer),
    );
  } catch (e) {
    port.postMessage({ id: msg.id, error: (e as Error).message ?? String(e) });
  }
});
