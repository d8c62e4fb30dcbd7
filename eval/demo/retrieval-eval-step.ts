/** Demo step 2: Recall@1/10/100/1000, MRR@10 and nDCG@10 of each method on the Bar Exam QA val split. */
import { evalRetrievalOnIndex } from '../retrieval-eval-index.js';
import { formatRetrievalReport } from '../retrieval-eval-format.js';
import { createProgress, type Progress } from '../../core/progress.js';
import type { DemoStep } from './types.js';
import { writeRecallPlot } from '../plots/recall-plot-file.js';

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
    const plot = await writeRecallPlot(ctx.dir, report, {
      seed: ctx.seed,
      iterations: ctx.iterations, // the table's resamples: a band at k is the interval the table prints for Recall@k
      title: `Recall@k — ${ctx.dataset} ${ctx.split} (n = ${report.dataset.n}), 95% CI bands`,
    });
    ctx.sections.push({ title: `Retrieval: ${ctx.dataset} ${ctx.split} split`, markdown: `${formatRetrievalReport(report)}\n\n${plot.markdown}` });
    ctx.data.retrieval = {
      ...report,
      plot: plot.file,
      curves: plot.points,
      results: report.results.map(({ perQuery, ...r }) => ({ ...r, perQuery: perQuery.map((q) => ({ id: q.id, firstRank: q.firstRank })) })),
    };
  },
};
