/**
 * Write a retrieval report's Recall@k curves (one per method, 95% CI bands) as an SVG beside a
 * report.md, and return the Markdown that embeds it.
 */
import { join } from 'node:path';
import type { RetrievalEvalResult } from '../retrieval-eval.js';
import { recallCurve } from './recall-curve.js';
import { renderSvg } from './render-svg.js';
import { writeAtomic } from '../run-dir.js';
import { recallCurveSpec, type CurvePoint } from './specs.js';

export const RECALL_PLOT_FILE = 'recall-at-k.svg';

/** Curve points of every method of a retrieval report (queries without gold ranks count as misses). */
export function reportCurves(results: readonly RetrievalEvalResult[], opts: { iterations?: number; seed?: number } = {}): CurvePoint[] {
  return results.flatMap((r) =>
    recallCurve(
      r.method,
      r.perQuery.map((q) => ({ gold: q.goldIds.length, ranks: q.goldRanks ?? (q.firstRank ? [q.firstRank] : []) })),
      r.depth,
      opts,
    ),
  );
}

/** Write Recall@k curve points as an SVG file (its folder must exist). */
export async function writeCurvePlot(file: string, points: CurvePoint[], title?: string): Promise<void> {
  await writeAtomic(file, await renderSvg(recallCurveSpec(points, title)));
}

export async function writeRecallPlot(
  dir: string,
  report: { results: readonly RetrievalEvalResult[] },
  opts: { iterations?: number; seed?: number; title?: string; file?: string } = {},
) {
  const points = reportCurves(report.results, opts);
  const file = opts.file ?? RECALL_PLOT_FILE;
  await writeCurvePlot(join(dir, file), points, opts.title);
  return { file, points, markdown: `![Recall@k per method with 95% interval bands (Wilson for 0/1 recall, bootstrap for graded)](${file})` };
}
