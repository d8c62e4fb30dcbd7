/**
 * `evalRetrievalOnIndex`: the retrieval evaluation behind `lexcase eval retrieval` and the demo —
 * opens an index dir, loads a dataset split, runs evalRetrieval for each method, and returns a
 * report that always states the corpus (name, passage count, checksum) and the dataset split, so a
 * figure on the small bundled corpus is never mistaken for one on the paper's 856,835-passage pool.
 */
import { shareOptions } from '../retrieval/method-options.js';
import { indexContent, openIndex, type OpenedIndex } from '../retrieval/open-index.js';
import { datasetChecksum, fileChecksum, loadQuestions } from '../corpora/registry.js';
import { datasetsWithGold } from '../corpora/catalog.js';
import { log } from '../core/log.js';
import { hybridTuningOverlapWarning } from './hybrid-tuning-overlap.js';
import { errors } from '../core/errors.js';
import { DEFAULT_SPLIT_SEED } from '../corpora/splits.js';
import { VERSION } from '../core/version.js';
import { runGitSha } from './provenance.js';
import type { Split } from '../corpora/types.js';
import { evalRetrieval, DEFAULT_KS, type QueryResult, type RetrievalEvalResult } from './retrieval-eval.js';
import { TrecRunWriter, trecQrelsLines, writeTrecFile } from './retrieval-eval-run-file.js';
import { runFileFor } from './retrieval-eval-run-file-name.js';
import { checkOutputs, runFileOutputs } from './output-files.js';
import type { Hit } from '../retrieval/types.js';
import { goldMissingOf, noGoldInIndexError, type GoldMissing } from './gold-in-index.js';

export const PAPER_POOL_NOTE =
  "The Bar Exam QA paper (and CASE, Table 3) retrieves from the full 856,835-passage pool; this corpus is smaller, so these figures are not comparable with the paper's.";

export interface IndexEvalOptions {
  index: string;
  methods: string[];
  dataset?: string;
  split?: Split;
  /** Split seed (default 13). */
  splitSeed?: number;
  /** Read the dataset from this file instead of the bundled copy. */
  datasetFile?: string;
  ks?: number[];
  /** Bootstrap resamples and seed. */
  iterations?: number;
  seed?: number;
  /** TREC run file; with several methods, "<name>.<method><ext>" per method. */
  runFile?: string;
  /** TREC qrels file for the evaluated questions. */
  qrelsFile?: string;
  /** Options passed to openRetriever (k1, b, mu, variant, ...). */
  retrieverOptions?: Record<string, unknown>;
  onProgress?: (method: string, done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface RetrievalReport {
  kind: 'retrieval-eval';
  lexcaseVersion: string;
  /** lexcase's commit (eval/provenance.ts runGitSha: '<sha>[-dirty]' of lexcase's own checkout or of the build of dist/ that runs, else 'unknown'). */
  gitSha: string;
  createdAt: string;
  index: string;
  corpus: { name: string; passages: number; checksum: string };
  /**
   * What the index holds, as run dirs record it (indexer/manifest.ts indexContent): its analyzer and,
   * with dense vectors, their model, settings and source (the embedding endpoint, redacted: no key,
   * no digest of one), so a dense figure says which server's vectors it was computed over.
   */
  indexContent: Record<string, unknown>;
  dataset: { name: string; split: Split; n: number; splitSeed: number; checksum: string; file?: string };
  /** Questions (with gold ids) none of whose gold passages is in the index: they can only score 0. */
  goldMissing: GoldMissing;
  query: string;
  /** The paper-pool caveat; only on the bundled Bar Exam QA questions, never on a user's own data. */
  note?: string;
  ks: number[];
  results: RetrievalEvalResult[];
  runFiles?: Record<string, string>;
  qrelsFile?: string;
}

export { runFileFor };

export async function evalRetrievalOnIndex(opts: IndexEvalOptions): Promise<RetrievalReport> {
  // Outputs never land in the index it reads (nor any index or run dir): eval/output-files.ts.
  checkOutputs(
    [...runFileOutputs('runFile', opts.runFile, opts.methods), { flag: 'qrelsFile', file: opts.qrelsFile, example: 'qrels.txt' }],
    [opts.index, opts.datasetFile],
  );
  const idx = await openIndex(opts.index);
  try {
    return await evalOnOpened(idx, opts);
  } finally {
    await idx.docs.close();
  }
}

async function evalOnOpened(idx: OpenedIndex, opts: IndexEvalOptions): Promise<RetrievalReport> {
  const manifest = idx.manifest;
  const dataset = opts.dataset ?? 'barexam';
  const split = opts.split ?? 'val';
  const splitSeed = opts.splitSeed ?? DEFAULT_SPLIT_SEED;
  const questions = await loadQuestions(dataset, split, { seed: splitSeed, file: opts.datasetFile });
  if (!questions.some((q) => q.goldPassageIds.length > 0)) {
    throw errors.nothingToEvaluate(
      `dataset "${dataset}"${opts.datasetFile ? ` (${opts.datasetFile})` : ''} has no gold passages: none of the ${questions.length} questions of split "${split}" names a gold passage id, so there is nothing to evaluate retrieval against`,
      `datasets with gold passages: ${datasetsWithGold().join(', ')}`,
    );
  }
  // the file read, by its content: a path spelled like a bundled dataset (`--dataset-file barexam`) recorded the bundled file's before 2026-12-04
  const checksum = opts.datasetFile ? await fileChecksum(opts.datasetFile) : await datasetChecksum(dataset);
  const goldMissing = goldMissingOf(idx.docs, questions);
  const withGold = questions.filter((q) => q.goldPassageIds.length > 0).length;
  if (goldMissing.questions === withGold)
    throw noGoldInIndexError(goldMissing, `${withGold} questions of dataset "${dataset}" split "${split}"`, `index ${opts.index}`, manifest.corpus.name);
  // Open all retrievers first, so a missing method fails before any work.
  const retrievers = [];
  const optionsOf = shareOptions(opts.retrieverOptions, opts.methods, 'eval retrieval');
  for (const m of opts.methods) retrievers.push(await idx.retriever(m, optionsOf(m)));
  const results: RetrievalEvalResult[] = [];
  const runFiles: Record<string, string> = {};
  for (const retriever of retrievers) {
    const method = String(retriever.method);
    let writer: TrecRunWriter | undefined;
    if (opts.runFile) {
      runFiles[method] = runFileFor(opts.runFile, method, opts.methods.length > 1);
      writer = new TrecRunWriter(runFiles[method], `lexcase-${method}`, retriever.scoreDigits);
    }
    const r = await evalRetrieval({
      retriever,
      questions,
      ks: opts.ks ?? DEFAULT_KS,
      iterations: opts.iterations,
      seed: opts.seed,
      signal: opts.signal,
      onProgress: (d, t) => opts.onProgress?.(method, d, t),
      onQuery: writer ? (q: QueryResult, hits: Hit[]) => writer!.add(q.id, hits) : undefined,
    }).catch(async (e: unknown) => {
      // stopped (an error, Ctrl-C): no run file of part of the questions; an earlier one at that path stays
      await writer?.discard();
      throw e;
    });
    await writer?.close();
    const tuned = await hybridTuningOverlapWarning(retriever, questions);
    if (tuned) {
      log.warn(`eval retrieval ${method}: ${tuned}`);
      r.warnings = [...(r.warnings ?? []), tuned];
    }
    results.push(r);
  }
  if (opts.qrelsFile) await writeTrecFile(opts.qrelsFile, trecQrelsLines(questions));
  return {
    kind: 'retrieval-eval',
    lexcaseVersion: VERSION,
    gitSha: runGitSha().gitSha,
    createdAt: new Date().toISOString(),
    index: opts.index,
    corpus: { name: manifest.corpus.name, passages: manifest.corpus.passages, checksum: manifest.corpus.checksum },
    indexContent: indexContent(manifest),
    dataset: { name: dataset, split, n: questions.length, splitSeed, checksum, ...(opts.datasetFile ? { file: opts.datasetFile } : {}) },
    goldMissing,
    query: 'prompt + "\\n" + question (answer choices not included)',
    ...(dataset === 'barexam' && !opts.datasetFile ? { note: PAPER_POOL_NOTE } : {}),
    ks: results[0]?.ks ?? opts.ks ?? DEFAULT_KS,
    results,
    ...(opts.runFile ? { runFiles } : {}),
    ...(opts.qrelsFile ? { qrelsFile: opts.qrelsFile } : {}),
  };
}
