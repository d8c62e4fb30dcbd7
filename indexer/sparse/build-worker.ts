/**
 * Build worker: analyses batches of passages into its own SegmentBuilder and spills term-sorted
 * segment files; the main thread merges them. Protocol (messages):
 *   → {type:'init', analyzer, segDir, name, threshold}
 *   → {type:'batch', base, texts}   ← {type:'batch-done', base, lengths: Uint32Array}
 *   → {type:'finish'}               ← {type:'finished', segments: string[]}
 *   ← {type:'error', message}
 */
import { parentPort } from 'node:worker_threads';
import { createAnalyzer } from '../analyzer.js';
import { SegmentSpiller, type SpillerInit } from './segment-spiller.js';

let spiller: SegmentSpiller | undefined;

parentPort!.on('message', (m: { type: string } & Record<string, unknown>) => {
  try {
    if (m.type === 'init') {
      const init = m as unknown as SpillerInit & { analyzer: object };
      spiller = new SegmentSpiller(createAnalyzer(init.analyzer), init);
    } else if (m.type === 'batch') {
      const lengths = spiller!.addBatch(m.base as number, m.texts as string[]);
      parentPort!.postMessage({ type: 'batch-done', base: m.base, lengths }, [lengths.buffer as ArrayBuffer]);
    } else if (m.type === 'finish') {
      parentPort!.postMessage({ type: 'finished', segments: spiller!.finish() });
    }
  } catch (e) {
    parentPort!.postMessage({ type: 'error', message: (e as Error).stack ?? String(e) });
  }
});
