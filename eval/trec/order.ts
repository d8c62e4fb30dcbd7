/**
 * trec_eval's ranking of one topic's results. trec_eval ignores the rank column and sorts by score,
 * descending, breaking ties by docid in DESCENDING strcmp (byte) order — usnistgov/trec_eval,
 * form_res_rels.c, comp_sim_docno():
 *     if (p1->sim > p2->sim) return (-1);
 *     if (p1->sim < p2->sim) return (1);
 *     return (strcmp(p2->docno, p1->docno));
 * (identical in v9.0.8 and in 10.0). So of two documents with equal scores, "d9" ranks above "d10"
 * and "b" above "a". Byte order = UTF-8 order, hence Buffer.compare rather than JS string order.
 */
import type { Hit } from '../../retrieval/types.js';
import { trecCompare } from '../../retrieval/top-k.js';
import { runDocsOfHits, type RunDoc } from './run.js';

/** The comparison (in retrieval/top-k.ts, where the cut of a search reads it too). */
export { trecCompare };

/** A new array in trec_eval's order. */
export const trecOrder = (docs: readonly RunDoc[]): RunDoc[] => docs.slice().sort(trecCompare);

/**
 * The ids of one query's hits in the order trec_eval gives the run file written from them (scores
 * rounded as it writes them (6 decimals; a hybrid's 10 significant digits), then this order): how `eval retrieval --dataset` and `--sweep-fusion`
 * rank hits, so their figures equal `eval run` / trec_eval on the run file.
 */
export const trecRankedIds = (hits: readonly Hit[], digits?: number): string[] => trecOrder(runDocsOfHits(hits, digits)).map((d) => d.docid);
