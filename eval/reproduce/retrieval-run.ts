/**
 * The `retrieval` grid run of a recipe: Recall@k of one retriever over a dataset split, on the
 * experiment runner (resumable run dir, one trace per question, sharding). Per question the
 * prediction is the top-ranked passage id, the gold is the first gold passage id, and the metrics
 * are `recall@<k>` (0/1 per k — each Bar Exam QA question has one gold passage) and `firstRank`.
 * The query is the question's prompt + question and the hits are ranked as trec_eval ranks their run
 * file (eval/trec/order.ts `trecRankedIds`: ties by docid descending), both as in `lexcase eval retrieval`
 * (eval/retrieval-eval.ts), so a question's firstRank and recall@k equal its figures there. config.json
 * records that order (`ranking: "trec_eval, top k past ties"`): a run dir an older lexcase wrote kept
 * the retriever's order on ties (or at the depth's cut), and resuming it is refused (its items would
 * mix the two orders).
 * A question none of whose gold passages is in the index can only miss: the run warns with their
 * count (as `eval retrieval` does) and marks each item `goldInIndex` (true/false) in its metrics,
 * from which the reproduction's table notes count them (table.ts), shards and resumes included.
 * config.json records what the index holds (`indexContent`: corpus checksum, analyzer, dense vector
 * settings), so a resume or `lexcase merge` over an index rebuilt or re-embedded otherwise is refused.
 */
import { loadPrebuiltDense } from '../demo/dense-step.js';
import { retrievalQuery } from '../../corpora/barexam.js';
import { loadQuestionsLimited } from '../../corpora/registry.js';
import { DEFAULT_SPLIT_SEED, parseSplit } from '../../corpora/splits.js';
import type { Question } from '../../corpora/types.js';
import { ensureDefaultIndex } from '../../retrieval/default-index.js';
import { indexContent, openCaseIndex } from '../../retrieval/open-index.js';
import { readManifest, type Manifest } from '../../indexer/manifest.js';
import { errors } from '../../core/errors.js';
import { methodSpec } from '../../retrieval/methods.js';
import { log } from '../../core/log.js';
import { firstRelevantRank, recallAtK } from '../metrics/index.js';
import { trecRankedIds } from '../trec/order.js';
import { printedRun } from '../../retrieval/top-k.js';
import { cutoffsBeyondDepth } from '../../retrieval/ranking-depth.js';
import { countGoldMissing, goldInIndexMetric } from '../gold-in-index.js';
import { contextFrom, runExperiment, type RunExperimentResult } from '../runner.js';
import type { AgentSystem } from '../types.js';

export interface RetrievalRunOptions {
  runDir: string;
  method: string;
  index?: string;
  dataset?: string;
  split?: string;
  splitSeed?: number;
  ks?: number[];
  limit?: number;
  seed?: number;
  /** The recorded run this one replays (`reproduce --replay`: <dir>/runs/<id>): refused unless its config is the recording's (eval/runner.ts replayOf). */
  replayOf?: string;
}

/**
 * What a retrieval run records of its index: the corpus and methods (\`index\`) and what the index
 * holds (\`indexContent\`, as agent runs record it: analyzer, dense vector settings), so a resume or a
 * merge over the same path rebuilt with another analyzer or re-embedded is refused. A sparse
 * method's run leaves the dense part out, which it never reads: loading the bundled index's prebuilt
 * vectors for a later dense run adds "dense" to that index, and a plain rerun of the reproduction
 * refused its own bm25 and qld runs ("field "index" differs").
 */
export function recordedIndex(manifest: Manifest, method: string): { index: Record<string, unknown>; indexContent: Record<string, unknown> } {
  const sparse = methodSpec(method)?.sparse === true;
  const { dense: _dense, ...withoutDense } = indexContent(manifest);
  return {
    index: {
      corpus: manifest.corpus.name,
      checksum: manifest.corpus.checksum,
      passages: manifest.corpus.passages,
      methods: sparse ? manifest.methods.filter((m) => m !== 'dense') : manifest.methods,
    },
    indexContent: sparse ? withoutDense : indexContent(manifest),
  };
}

/**
 * The order a retrieval (and trec) run ranks hits in, recorded in its config.json: trec_eval's, the
 * top k searched past ties at the cut (retrieval/top-k.ts). A run dir without it kept the retriever's
 * order on ties; one with "trec_eval" ordered ties but cut at the depth first (a tie at the cut kept
 * the retriever's passages): both are refused on resume.
 */
export const RETRIEVAL_RANKING = 'trec_eval, top k past ties';

/**
 * A hybrid run's order where its deepest cutoff reaches the hybrid's depth: the same, the search past
 * a tie at the cut going past the depth too (the fused ranking is the same for every k). A run dir
 * that recorded RETRIEVAL_RANKING there was cut at the depth, a tie at the cut kept in the fused
 * order (barexam val: 12 of 124 queries' 1000th hit), so it is refused on resume.
 */
export const HYBRID_PAST_DEPTH_RANKING = 'trec_eval, top k past ties and past the depth';

export async function runRetrievalGridRun(o: RetrievalRunOptions): Promise<RunExperimentResult> {
  const ks = [...new Set(o.ks ?? [10, 100, 1000])].sort((a, b) => a - b);
  if (!ks.length || ks.some((k) => !Number.isInteger(k) || k < 1)) throw errors.invalidInput('ks', `expected positive integers, got ${JSON.stringify(o.ks)}`);
  const depth = Math.max(...ks);
  const dataset = o.dataset ?? 'barexam';
  const split = parseSplit(o.split ?? 'val');
  const index = o.index ?? (await ensureDefaultIndex(undefined, (l) => log.info(l)));
  let manifest = await readManifest(index);
  // The bundled default index gets its dense rows from the prebuilt use-lite vectors (seconds, no embedding).
  if (o.index === undefined && (o.method === 'dense' || o.method === 'hybrid') && !manifest.methods.includes('dense')) {
    const name = await loadPrebuiltDense(index, (l) => log.info(l));
    if (name) log.info(`dense index of ${index} loaded from the prebuilt vectors ${name}`);
    manifest = await readManifest(index);
  }
  const idx = await openCaseIndex(index, [o.method]);
  const retriever = idx.retrievers[o.method];
  if (!retriever) {
    await idx.docs.close?.(); // the doc store is open: close it before failing (no file handle left to the GC)
    throw errors.methodUnavailable(o.method, index, manifest.methods);
  }
  try {
    const questions = (await loadQuestionsLimited(dataset, split, { seed: o.splitSeed, limit: o.limit })).filter((q) => q.goldPassageIds.length > 0);
    const missing = countGoldMissing(idx.docs, questions);
    if (missing.questions)
      log.warn(
        `retrieval ${o.method}: ${missing.questions} of ${questions.length} questions have no gold passage in index ${index} (${manifest.corpus.name}, ${manifest.corpus.passages.toLocaleString('en-US')} passages; e.g. ${missing.examples.join(', ')}); they count as misses`,
      );
    // Recall@k past a hybrid's depth counts only what its components rank within it: said here and in the table (table.ts)
    const beyond = cutoffsBeyondDepth(o.method, retriever.rankingDepth, ks);
    if (beyond) log.warn(`retrieval ${o.method}: Recall${beyond}`);
    const system: AgentSystem<Question> = async (q) => {
      const hits = await printedRun(retriever, retrievalQuery(q), depth, { of: `question "${q.id}"` });
      const ranked = trecRankedIds(hits, retriever.scoreDigits);
      const scores = new Map(hits.map((h) => [h.id, h.score]));
      const metrics: Record<string, number | boolean | null> = {
        firstRank: firstRelevantRank(ranked, q.goldPassageIds),
        ...goldInIndexMetric(idx.docs, q),
      };
      for (const k of ks) metrics[`recall@${k}`] = recallAtK(ranked, q.goldPassageIds, k);
      return {
        prediction: ranked[0] ?? null,
        metrics,
        trace: { query: retrievalQuery(q), goldIds: q.goldPassageIds, top10: ranked.slice(0, 10).map((id) => ({ id, score: scores.get(id) })) },
      };
    };
    return await runExperiment({
      runDir: o.runDir,
      lexcaseSystem: 'retrieval',
      system,
      items: questions,
      gold: (q) => q.goldPassageIds[0],
      makeContext: contextFrom({ getPassage: idx.getPassage }),
      config: {
        system: 'retrieval',
        method: o.method,
        dataset,
        split,
        // the seed the split was drawn with, as `run case` records it (an older lexcase recorded null for the default 13; resume-unrecorded.ts)
        splitSeed: o.splitSeed ?? DEFAULT_SPLIT_SEED,
        ks,
        ranking: retriever.rankingDepth !== undefined && depth >= retriever.rankingDepth ? HYBRID_PAST_DEPTH_RANKING : RETRIEVAL_RANKING,
        limit: o.limit ?? null,
        ...recordedIndex(manifest, o.method),
        ...(retriever.config ? { retriever: retriever.config } : {}),
      },
      seed: o.seed ?? 13,
      label: `retrieval ${o.method}`,
      replayOf: o.replayOf,
    });
  } finally {
    await idx.docs.close?.();
  }
}
