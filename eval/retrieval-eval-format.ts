/** Human-readable (Markdown) rendering of a retrieval report: a header that states corpus and split, then one row per method. */
import type { RetrievalReport } from './retrieval-eval-index.js';
import { figureText, methodsNoteFor, type Interval } from './stats/index.js';
import { MRR_K, NDCG_K } from './retrieval-eval.js';
import { table } from './report/format.js';
import { denseQueryLines } from '../retrieval/dense-query.js';
import { scoringLines } from '../retrieval/scoring-lines.js';
import { noHitsLine } from './trec/format.js';
import { goldMissingLine } from './gold-in-index.js';

/** "0.073 [0.039, 0.132]" — retrieval measures are decimals (eval/stats format). */
export const fmtCi = (c: Interval): string => figureText(c, 'decimal');
const int = (n: number) => n.toLocaleString('en-US');

export function reportHeader(r: RetrievalReport): string {
  const b = r.results[0]?.bootstrap;
  // the n every figure is over: questions without a gold passage id cannot be scored and are left out (said, never silently)
  const skipped = r.results[0]?.skipped ?? 0;
  const evaluated = r.results[0]?.n ?? r.dataset.n;
  const n = skipped
    ? `n = ${int(evaluated)}: ${int(skipped)} of the split's ${int(r.dataset.n)} questions ${skipped === 1 ? 'has' : 'have'} no gold passage id and ${skipped === 1 ? 'is' : 'are'} left out`
    : `n = ${int(r.dataset.n)}`;
  return [
    `Corpus: **${r.corpus.name}** (${int(r.corpus.passages)} passages) · ${r.dataset.file ? `questions from **${r.dataset.file}** (${r.dataset.name} format)` : `dataset **${r.dataset.name}**`}, split **${r.dataset.split}** (${n}, split seed ${r.dataset.splitSeed}; lexcase's seeded split, not the original membership)`,
    `Query: ${r.query}. Cells: mean [95% interval]. ${methodsNoteFor(b)}`,
    ...scoringLines(r.results),
    ...denseQueryLines(r.results),
    ...(r.note ? [`Note: ${r.note}`] : []),
    ...r.results.flatMap((res) => (res.warnings ?? []).map((w) => `**Warning:** ${res.method}: ${w}.`)),
    // a question without hits scores 0 here; a run file has no line for it, so `eval run` equals these figures only with --complete
    ...r.results.filter((x) => x.noHits?.count).map((x) => noHitsLine(x.method, x.noHits, r.runFiles?.[x.method], 'question')),
    ...(r.goldMissing?.questions ? [`**Warning:** ${goldMissingLine(r.goldMissing, evaluated, 'question', !r.dataset.file)}`] : []),
  ].join('\n');
}

export function retrievalTable(r: RetrievalReport): string {
  const cols = [...r.ks.map((k) => `recall@${k}`), `mrr@${MRR_K}`, `ndcg@${NDCG_K}`];
  const title = (c: string) => c.replace('recall', 'Recall').replace('mrr', 'MRR').replace('ndcg', 'nDCG');
  const rows = r.results.map((res) => [
    res.method,
    ...cols.map((c) => (res.metrics[c] ? fmtCi(res.metrics[c]) : '–')),
    res.latency.p50Ms === null ? '–' : res.latency.p50Ms.toFixed(1),
  ]);
  return table(['method', ...cols.map(title), 'p50 ms'], rows);
}

export function formatRetrievalReport(r: RetrievalReport): string {
  return `${reportHeader(r)}\n\n${retrievalTable(r)}`;
}
