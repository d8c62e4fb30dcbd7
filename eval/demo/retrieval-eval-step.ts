/** Demo step 2: Recall@1/10/100/1000, MRR@10 and nDCG@10 of each method on the Bar Exam QA val split. */
import { evalRetrievalOnIndex } from '../retrieval-eval-index.js';
import { formatRetrievalReport } from '../retrieval-eval-format.js';
import { createProgress, type Progress } from '../../src/progress.js';
import type { DemoStep } from './types.js';

export const retrievalEvalStep: DemoStep = {
  name: 'retrieval-eval',
  async run(ctx) {
    ctx.say(`evaluating ${ctx.evalMethods.join(', ')} on ${ctx.dataset} ${ctx.split}…`);
    let bar: Progress | undefined;
    let current = '';
    const report = await evalRetrievalOnIndex({
      index: ctx.indexDir,
      methods: ctx.evalMethods,
      dataset: ctx.dataset,
      split: ctx.split,
      splitSeed: ctx.splitSeed,
      seed: ctx.seed,
      iterations: ctx.iterations,
      ks: [1, 10, 100, 1000],
      signal: ctx.signal,
      onProgress: (method, done, total) => {
        if (method !== current) {
          bar?.stop();
          current = method;
          bar = createProgress(`eval ${method}`, { unit: 'queries' });
          bar.start(total);
        }
        bar!.update(done);
      },
    }).finally(() => bar?.stop());
    ctx.sections.push({ title: `Retrieval: ${ctx.dataset} ${ctx.split} split`, markdown: formatRetrievalReport(report) });
    ctx.data.retrieval = {
      ...report,
      results: report.results.map(({ perQuery, ...r }) => ({ ...r, perQuery: perQuery.map((q) => ({ id: q.id, firstRank: q.firstRank })) })),
    };
  },
};
