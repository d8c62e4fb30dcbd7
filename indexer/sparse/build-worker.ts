/**
 * Build worker: analyses batches of passages into its own SegmentBuilder and spills term-sorted
 * segment files; the main thread merges them. Protocol (messages):
 *   → {type:'init', analyzer, segDir, name, threshold}
 *   → {type:'batch', base, texts}   ← {type:'batch-done', base, lengths: Uint32Array}
 *   → {type:'finish'}               ← {type:'finished', segments: SegmentInfo[]}
 *   → {type:'merge', job, prefix}   ← {type:'merged', output: RangeOutput}   (merge-ranges.ts)
 *   ← {type:'error', message}
 */
import { parentPort } from 'node:worker_threads';
import { createAnalyzer } from '../analyzer.js';
import { SegmentSpiller, type SpillerInit } from './segment-spiller.js';
import { mergeRangeToParts, type RangeJob } from './merge-ranges.js';

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
    } else if (m.type === 'merge') {
      const output = mergeRangeToParts(m.job as RangeJob, m.prefix as string);
      const b = output.bounds;
      parentPort!.postMessage({ type: 'merged', output }, [
        output.df.buffer as ArrayBuffer,
        output.cf.buffer as ArrayBuffer,
        output.ends.buffer as ArrayBuffer,
        ...(b ? [b.ids.buffer as ArrayBuffer, b.minDl.buffer as ArrayBuffer, b.maxTf.buffer as ArrayBuffer] : []),
      ]);
    }
  } catch (e) {
    parentPort!.postMessage({ type: 'error', message: (e as Error).stack ?? String(e) });
  }
});
