/**
 * A metric cut deeper than a run ranks. trec_eval scores recall@100 of a run cut at 10 documents a
 * topic (`search --topics -k 10`) over those 10, the missing ranks as not relevant, so its recall@100
 * equals its recall@10 and its P@100 is at most 0.1: figures a reader takes for a 100-deep ranking.
 * The figures stay trec_eval's; every path that scores a cut run says so, in these words:
 *   `eval run` (a run file of any depth; with --aggregate, per document), `eval retrieval --topics`
 *   (its --hits, eval-index.ts), a reproduction's `trec` cells (the recipe's `hits`, reproduce/table.ts).
 * A run file's depth is not recorded, so a run counts as cut when most of its topics (more than half)
 * hold exactly its deepest topic's count D (a run where each topic holds every passage its query
 * matches, of a small corpus, varies in length and is not flagged); where the depth searched is known
 * (a recipe's `hits`), a topic holding that many is cut.
 */
import type { Measure } from './measures.js';
import type { TrecRun } from './run.js';

/** The measures cut deeper than `depth` and the deepest of their cutoffs; undefined when none is. */
export function cutoffsPast(measures: readonly Measure[], depth: number): { over: Measure[]; most: number } | undefined {
  const over = measures.filter((m) => m.k !== undefined && m.k > depth);
  return over.length ? { over, most: Math.max(...over.map((m) => m.k!)) } : undefined;
}

/** A run cut shallower than some of its measures' cutoffs (runCut). */
export interface RunCut {
  /** The measures cut deeper than the run ranks. */
  over: Measure[];
  /** The deepest cutoff among them. */
  most: number;
  /** The run's depth: what its cut topics hold. */
  depth: number;
  /** Topics holding exactly `depth` (cut there), of `topics`. */
  cut: number;
  topics: number;
}

/**
 * Whether a run whose topics hold `lengths` documents looks cut, and where. `searched`: the depth it
 * was searched to, where known (a topic holding that many is cut; none is when every topic holds
 * fewer: the collection held no more); else its deepest topic's count, cut when more than half its
 * topics hold it.
 */
export function cutDepth(lengths: readonly number[], searched?: number): Pick<RunCut, 'depth' | 'cut' | 'topics'> | undefined {
  const depth = searched ?? Math.max(0, ...lengths);
  const cut = lengths.filter((n) => n === depth).length;
  if (searched !== undefined ? cut === 0 : cut * 2 <= lengths.length) return undefined;
  return { depth, cut, topics: lengths.length };
}

/** A run whose topics hold `lengths` documents, cut (cutDepth) shallower than some of `measures`' cutoffs; else undefined. */
export function runCut(lengths: readonly number[], measures: readonly Measure[], searched?: number): RunCut | undefined {
  const at = cutDepth(lengths, searched);
  const past = at && cutoffsPast(measures, at.depth);
  return past && { ...at, ...past };
}

const int = (n: number) => n.toLocaleString('en-US');

/**
 * The warning, one sentence: `what` the run as the reader knows it ("the run (bm25.txt)", "run
 * bm25"); `deeper(k)` how to get a run k deep ("lexcase search --topics … -k 1000"); `documents`, for
 * a passage run evaluated per document, the fewest and most documents its cut topics make.
 */
export function runCutText(c: RunCut, what: string, deeper: (k: number) => string, documents?: { fewest: number; most: number; strategy: string }): string {
  const one = c.over.length === 1;
  const unit = documents ? 'passages' : 'documents';
  const made = documents
    ? `, which make ${documents.fewest === documents.most ? int(documents.fewest) : `${int(documents.fewest)} to ${int(documents.most)}`} documents (${documents.strategy})`
    : '';
  return `${c.over.map((m) => m.name).join(', ')} ${one ? 'is' : 'are'} cut deeper than ${what} ranks${documents ? ' per document' : ''}: ${int(c.cut)} of its ${int(c.topics)} topics hold exactly ${int(c.depth)} ${unit} and none more, as a run cut at ${int(c.depth)} does${made}; ${one ? 'it counts' : 'they count'} only those${documents ? ' documents' : ''}, the missing ranks as not relevant (trec_eval's figure); unless the collection holds no more, a run ${int(c.most)} deep (${deeper(c.most)}) ranks ${int(c.most)}`;
}

/** `eval run`'s warning for a run file (`what`: the run as the reader knows it); undefined when it is not cut or no measure goes past it. */
export function cutsPastRunDepth(run: TrecRun, measures: readonly Measure[], what: string): string | undefined {
  const c = runCut(
    [...run.values()].map((docs) => docs.length),
    measures,
  );
  return c && runCutText(c, what, (k) => `lexcase search --topics … -k ${k}`);
}

/**
 * `eval run --aggregate`'s warning: `passages` the run file as read, `documents` the same run per
 * document. The passage run is cut as above; a measure goes past it where its cutoff is deeper than
 * the documents a cut topic's passages make (fewer than its passages: several passages are one
 * document), a run of `k` documents being `search --topics --aggregate S -k k`.
 */
export function cutsPastAggregatedRunDepth(
  passages: TrecRun,
  documents: TrecRun,
  measures: readonly Measure[],
  what: string,
  strategy: string,
): string | undefined {
  const cutAt = cutDepth([...passages.values()].map((docs) => docs.length));
  if (!cutAt) return undefined;
  const docCounts = [...passages].filter(([, docs]) => docs.length === cutAt.depth).map(([qid]) => documents.get(qid)?.length ?? 0);
  const fewest = Math.min(...docCounts);
  const past = cutoffsPast(measures, fewest);
  if (!past) return undefined;
  return runCutText({ ...cutAt, ...past }, what, (k) => `lexcase search --topics … --aggregate ${strategy} -k ${k}`, {
    fewest,
    most: Math.max(...docCounts),
    strategy,
  });
}
