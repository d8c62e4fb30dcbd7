/** Markdown rendering of TREC evaluations: topic accounting, a metrics table, per-topic values, comparisons. */
import { fixedHalfEven } from '../../core/fixed.js';
import { table } from '../report/format.js';
import { denseQueryLines } from '../../retrieval/dense-query.js';
import { scoringLines } from '../../retrieval/scoring-lines.js';
import {
  diffIntervalText,
  diffText,
  disagreementNotes,
  intervalText,
  methodsNoteFor,
  pairedNoteFor,
  pText,
  TEST_LABEL,
  type Interval,
} from '../stats/index.js';
import type { TrecEvalResult } from './evaluate.js';
import type { TrecComparison } from './compare.js';
import type { TopicsRetrievalReport } from './eval-index.js';

/** A measure as trec_eval prints it (`%6.4f`): an exact half (29/32 = 0.90625) to the even digit, "0.9062" (toFixed wrote "0.9063"). */
const f3 = (x: number) => fixedHalfEven(x, 4);
const int = (n: number) => n.toLocaleString('en-US');
const eg = (s: { count: number; examples: string[] }) => `${s.examples.join(', ')}${s.count > s.examples.length ? ', …' : ''}`;
const plural = (n: number, one: string, many = `${one}s`) => `${int(n)} ${n === 1 ? one : many}`;

/** What was evaluated and what was skipped, in trec_eval's terms. */
export function topicLines(r: TrecEvalResult): string[] {
  const t = r.topics;
  const lines = [
    `Topics evaluated: ${int(r.n)} (run ${int(t.inRun)}, qrels ${int(t.inQrels)}; trec_eval semantics, relevant = grade ≥ ${r.relevanceLevel}${r.complete ? ', -c' : ''}).`,
  ];
  if (t.notInQrels.count) lines.push(`Skipped: ${plural(t.notInQrels.count, 'run topic')} without judgements (${eg(t.notInQrels)}).`);
  if (t.missingFromRun.count)
    lines.push(
      t.missingFromRun.countedAsZero
        ? `Counted as 0 (--complete): ${plural(t.missingFromRun.count, 'qrels topic')} missing from the run (${eg(t.missingFromRun)}).`
        : `Skipped: ${plural(t.missingFromRun.count, 'qrels topic')} missing from the run (${eg(t.missingFromRun)}); --complete counts ${t.missingFromRun.count === 1 ? 'it' : 'them'} as 0, like trec_eval -c.`,
    );
  if (t.noRelevant.count)
    lines.push(
      t.noRelevant.skipped
        ? `Left out (--skip-no-relevant): ${plural(t.noRelevant.count, 'topic')} with no relevant document (${eg(t.noRelevant)}).`
        : `${plural(t.noRelevant.count, 'topic')} with no relevant document (${eg(t.noRelevant)}) ${t.noRelevant.count === 1 ? 'scores 0 and is' : 'score 0 and are'} in the mean, as in trec_eval; --skip-no-relevant leaves ${t.noRelevant.count === 1 ? 'it' : 'them'} out.`,
    );
  if (t.belowLevel?.count)
    lines.push(
      `${plural(t.belowLevel.count, 'topic')} with relevant documents but none of grade ≥ ${r.relevanceLevel} (${eg(t.belowLevel)}) ${t.belowLevel.count === 1 ? 'scores' : 'score'} 0 on recall, P, MRR and MAP at this level, not on nDCG (which takes every grade as its gain); ${t.belowLevel.count === 1 ? 'it is' : 'they are'} in the mean, as in trec_eval -l ${r.relevanceLevel}${t.noRelevant.skipped ? ' (--skip-no-relevant keeps them)' : ''}.`,
    );
  const b = r.bootstrap;
  lines.push(`Cells: mean [95% interval over topics]. ${methodsNoteFor(b)}`);
  return lines;
}

/** "0.3123 [0.2651, 0.3604]" (trec_eval's 4 decimals), or "0.3123 (n < 10)" without an interval. */
const cell = (iv: Interval) =>
  iv.lo !== null && iv.hi !== null ? `${f3(iv.estimate)} [${f3(iv.lo)}, ${f3(iv.hi)}]` : `${f3(iv.estimate)} ${intervalText(iv, 'decimal')}`;

/** One row per system: metric means with their intervals. */
export function trecTable(rows: { label: string; result: TrecEvalResult; extra?: Record<string, string> }[]): string {
  const metrics = rows[0]?.result.metrics ?? [];
  const extraCols = Object.keys(rows[0]?.extra ?? {});
  return table(
    ['system', ...metrics, ...extraCols],
    rows.map(({ label, result, extra }) => [
      label,
      ...metrics.map((m) => (result.means[m] ? cell(result.means[m]) : '–')),
      ...extraCols.map((c) => extra?.[c] ?? ''),
    ]),
  );
}

/** trec_eval -q style: one row per topic. */
export function perTopicTable(r: TrecEvalResult): string {
  return table(
    ['qid', 'rel', 'ret', 'rel_ret', ...r.metrics],
    r.perTopic.map((t) => [
      t.qid + (t.missingFromRun ? ' (not in run)' : t.noHits ? ' (no hits)' : ''),
      t.numRel,
      t.numRet,
      t.relRet,
      ...r.metrics.map((m) => f3(t.values[m])),
    ]),
  );
}

/** The paired topics one run never retrieved for, each scored 0 there by --complete (trec_eval -c): ", 5 of them missing from B's run, scored 0 there (--complete)". */
function zeroPairsText(c: Pick<TrecComparison, 'zeroA' | 'zeroB'>): string {
  const sides = [c.zeroA ? `${int(c.zeroA)} missing from A's run` : '', c.zeroB ? `${int(c.zeroB)} missing from B's run` : ''].filter(Boolean);
  return sides.length ? `, ${sides.join(' and ')} (scored 0 there by --complete, like trec_eval -c)` : '';
}

export function comparisonTable(c: TrecComparison, labelA: string, labelB: string): string {
  const rows = Object.entries(c.metrics).map(([m, d]) => [
    m,
    f3(d.a),
    f3(d.b),
    diffText(d.estimate, 'decimal'),
    diffIntervalText(d, 'decimal'),
    pText(d.p),
    TEST_LABEL[d.test],
  ]);
  return [
    `Paired comparison B − A on ${plural(c.shared, c.zeroA || c.zeroB ? 'topic' : 'shared topic')} (A: ${labelA}, B: ${labelB})${zeroPairsText(c)}${c.onlyA || c.onlyB ? `; not paired: ${int(c.onlyA)} only in A, ${int(c.onlyB)} only in B` : ''}.`,
    '',
    table(['metric', 'A', 'B', 'B − A', '95% interval of B − A', 'p', 'test'], rows),
    '',
    // a metric's disagreement note and a blank line after it; a metric without one adds nothing (one blank line before the paired note)
    ...Object.entries(c.metrics).flatMap(([m, d]) => {
      const notes = disagreementNotes([{ label: m, disagreement: d.disagreement }]);
      return notes.length ? [...notes, ''] : [];
    }),
    pairedNoteFor(
      c.bootstrap,
      c.zeroA || c.zeroB ? 'Δ = B − A on the topics paired above: a topic missing from one run is scored 0 there (--complete).' : undefined,
    ),
  ].join('\n');
}

/**
 * One method's line for the topics (or questions) it searched and got no hit for: they score 0 and
 * are in the mean, while its TREC run file has no line for them (`eval run` needs --complete).
 */
export function noHitsLine(method: string, noHits: { count: number; examples: string[] }, runFile: string | undefined, unit = 'topic'): string {
  const one = noHits.count === 1;
  const them = one ? 'it' : 'them';
  const file = runFile
    ? `its run file ${runFile} has no line for ${them} (TREC format), so \`eval run\` of that file needs --complete to count ${them}`
    : `a TREC run file of it (--run-file) would have no line for ${them}, so \`eval run\` of that file needs --complete to count ${them}`;
  return `${method} returned no hits for ${plural(noHits.count, unit)} (${eg(noHits)}): ${one ? 'it scores' : 'they score'} 0 there and ${one ? 'is' : 'are'} in the mean; ${file}.`;
}

/**
 * A reproduction's trec run line for the topics it searched and got no hit for: trec_eval (without -c)
 * skips a topic with no line in the run, so they are left out of n and of the mean (reproduce/trec-run.ts),
 * where `eval retrieval` scores them 0 (`noHitsLine`).
 */
export function noHitsLeftOutLine(run: string, noHits: { count: number; examples: string[] }, unit = 'topic'): string {
  const one = noHits.count === 1;
  return `Run ${run} returned no hits for ${plural(noHits.count, unit)} (${eg(noHits)}): ${one ? 'it is' : 'they are'} left out of its cells' n and mean, as trec_eval skips a topic with no line in the run file (\`eval run --complete\` of its run.txt would score ${one ? 'it' : 'them'} 0).`;
}

/**
 * `eval retrieval --topics`: every method is scored over the same topics (eval-index.ts), so one
 * topic accounting holds for all; a topic a method got no hit for scores 0 there, named per method.
 */
function noHitLines(r: TopicsRetrievalReport): string[] {
  return r.results.filter((x) => x.noHits.count > 0).map((x) => noHitsLine(x.method, x.noHits, x.runFile));
}

/** The report of `eval retrieval --topics … --qrels …`: corpus, topics, qrels, one row per method. */
export function formatTopicsReport(r: TopicsRetrievalReport, opts: { perTopic?: boolean } = {}): string {
  const first = r.results[0];
  // The same n for every method by construction; should they ever differ, each row says its own.
  const sameN = r.results.every((x) => x.n === first?.n);
  const topics = first ? topicLines(first) : [];
  return [
    `Corpus: **${r.corpus.name}** (${int(r.corpus.passages)} passages) · topics ${r.topics.file} (${int(r.topics.n)}${r.topics.fields ? `; query: ${r.topics.fields.join(' + ')}` : ''}) · qrels ${r.qrels.file} (${int(r.qrels.topics)} topics, ${int(r.qrels.judgements)} judgements) · ${int(r.depth)} ${r.aggregate ? 'documents' : 'hits'} a topic${r.ties ? ` · ties ${r.ties}` : ''}`,
    ...(r.aggregate
      ? [
          `Per document: ${r.aggregate.strategy} over ${int(r.aggregate.passageHits ?? 0)} passages a topic, documents by ${r.aggregate.docIds}; the qrels judge documents.`,
        ]
      : []),
    // the topic accounting, then what holds per method, then the "Cells:" line
    ...topics.slice(0, -1),
    ...(r.results.length > 1 && sameN ? [`Every method is scored over the same ${plural(first!.n, 'topic')} (n).`] : []),
    ...noHitLines(r),
    ...(r.warnings ?? []).map((w) => `**Warning:** ${w}.`),
    ...topics.slice(-1),
    ...scoringLines(r.results),
    ...denseQueryLines(r.results),
    '',
    trecTable(
      r.results.map((x) => ({
        label: x.method,
        result: x,
        extra: { ...(sameN ? {} : { n: int(x.n) }), 'p50 ms': x.latency.p50Ms.toFixed(1) },
      })),
    ),
    ...(opts.perTopic ? r.results.flatMap((x) => ['', `${x.method}:`, perTopicTable(x)]) : []),
  ].join('\n');
}
