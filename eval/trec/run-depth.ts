/**
 * A metric cut deeper than a run file ranks. trec_eval scores recall@100 of a run cut at 10
 * documents a topic (`search --topics -k 10`) over those 10, the missing ranks as not relevant, so
 * its recall@100 equals its recall@10 and its P@100 is at most 0.1: figures a reader takes for a
 * 100-deep ranking. `eval retrieval --topics` warns when its --hits is below a cutoff (eval-index.ts);
 * `eval run` reads a run of any depth, so it says the same of a run that looks cut: most of its
 * topics hold exactly its deepest topic's count D (a run where each topic holds every passage its
 * query matches, of a small corpus, varies in length and is not flagged). The figures are unchanged.
 */
import type { Measure } from './measures.js';
import type { TrecRun } from './run.js';

/**
 * The warning for `measures` cut deeper than `run` ranks when the run looks cut at its depth (more
 * than half its topics hold exactly the deepest topic's count); undefined otherwise. `what`: the run
 * as the reader knows it.
 */
export function cutsPastRunDepth(run: TrecRun, measures: readonly Measure[], what: string): string | undefined {
  let deepest = 0;
  for (const docs of run.values()) deepest = Math.max(deepest, docs.length);
  let atDepth = 0;
  for (const docs of run.values()) if (docs.length === deepest) atDepth++;
  const over = measures.filter((m) => m.k !== undefined && m.k > deepest);
  if (!over.length || atDepth * 2 <= run.size) return undefined;
  const most = Math.max(...over.map((m) => m.k!));
  const one = over.length === 1;
  const int = (n: number) => n.toLocaleString('en-US');
  return `${over.map((m) => m.name).join(', ')} ${one ? 'is' : 'are'} cut deeper than ${what} ranks: ${int(atDepth)} of its ${int(run.size)} topics hold exactly ${int(deepest)} documents and none more, as a run cut at ${int(deepest)} does; ${one ? 'it counts' : 'they count'} only those, the missing ranks as not relevant (trec_eval's figure); unless the collection holds no more, a run ${int(most)} deep (lexcase search --topics … -k ${most}) ranks ${int(most)}`;
}
