/**
 * The `trec` grid run of a recipe: a TREC test collection the user supplies (`--data DIR`), indexed
 * once into the reproduction dir, every judged topic searched by one retriever, and per topic the
 * trec_eval measures of its ranking (eval/trec/measures.ts) — so a recipe cell `mean` of `map` is
 * trec_eval's MAP over the topics trec_eval averages (those with judgements and a result; a topic
 * without any hit is skipped, as trec_eval skips it without -c; table.ts names such topics beside the
 * cell's n and in the table's notes).
 *
 *   <repro dir>/collections/<collection>-<analyzer>/   the index (reused while the documents file's checksum,
 *                                                      the analyzer, the index format and the lexcase version
 *                                                      that built it match, recorded beside it in
 *                                                      <collection>-<analyzer>.data.json (collection-stamp.ts);
 *                                                      else rebuilt, saying what differs)
 *   <run dir>/run.txt                                  the TREC run, for trec_eval
 *
 * Collections: `cacm` (corpora/cacm.ts). Run args: collection, method (bm25 | qld), analyzer
 * (`lucene` or lexcase's settings, as `index build --analyzer`), scorer, k1, b, mu, variant, rm3
 * (true; fb-docs, fb-terms, original-query-weight), hits (default 1000), ties (none | anserini),
 * metrics (default map, p@30).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { cacmChecksums, cacmDifferences, locateCacm, readCacmDocuments, readCacmTopics } from '../../corpora/cacm.js';
import { loadQrels } from '../../corpora/qrels.js';
import type { Topic } from '../../corpora/topics.js';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { resolveAnalyzerConfig } from '../../indexer/analyzer.js';
import { buildIndex } from '../../indexer/build.js';
import { readManifest, type AnalyzerConfig } from '../../indexer/manifest.js';
import { MANIFEST_FORMAT, MANIFEST_VERSION } from '../../indexer/manifest-format.js';
import { VERSION } from '../../core/version.js';
import { openRetriever } from '../../retrieval/open.js';
import { rm3Params, withRm3Ties } from '../../retrieval/rm3-params.js';
import { gainedNoFeedbackTerm, noFeedbackNote } from '../../retrieval/rm3-no-feedback.js';
import { applyTies, type TieMode } from '../trec/anserini-ties.js';
import { measureValue, parseMeasures } from '../trec/measures.js';
import { trecOrder } from '../trec/order.js';
import { searchTopK } from '../../retrieval/top-k.js';
import { RETRIEVAL_RANKING } from './retrieval-run.js';
import { staleCollectionIndex, type CollectionStamp } from './collection-stamp.js';
import { runDocsOfHits } from '../trec/run.js';
import { runCut, runCutText } from '../trec/run-depth.js';
import { TrecRunWriter } from '../retrieval-eval-run-file.js';
import { contextFrom, runExperiment, type RunExperimentResult } from '../runner.js';
import type { AgentSystem } from '../types.js';

export interface TrecRunOptions {
  runDir: string;
  /** The reproduction dir (the collection's index is built under it). */
  reproDir: string;
  collection: string;
  /** The user's copy of the collection (`reproduce --data`). */
  data?: string;
  method: string;
  analyzer: Partial<AnalyzerConfig>;
  retrieverOptions: Record<string, unknown>;
  hits?: number;
  ties?: TieMode;
  metrics?: string[];
  limit?: number;
  seed?: number;
  /** The recorded run this one replays (`reproduce --replay`: <dir>/runs/<id>): refused unless its config is the recording's (eval/runner.ts replayOf). */
  replayOf?: string;
}

/** A collection a `trec` run can prepare from the user's files. */
interface TrecCollection {
  locate(data: string | undefined): { files: object; checksums: Record<string, string> };
  /** The file the documents are read from (what the collection's index is built from) and its key in `checksums`. */
  documentsFile(files: object): { file: string; key: string };
  documents(files: object): { id: string; text: string; source: string }[];
  topics(files: object): Topic[];
  qrelsFile(files: object): string;
}

/** Folders already warned about (one warning per folder and process, not per run). */
const warned = new Set<string>();

const COLLECTIONS: Record<string, TrecCollection> = {
  cacm: {
    locate(data) {
      const files = locateCacm(data);
      const checksums = cacmChecksums(files);
      const differ = cacmDifferences(files, checksums);
      if (differ.length && !warned.has(files.dir)) {
        warned.add(files.dir);
        log.warn(
          `${files.dir}: ${differ.join(', ')} ${differ.length > 1 ? 'are' : 'is'} not Anserini's copy (sha256 differs): the figures need not equal Anserini's published ones`,
        );
      }
      return { files, checksums };
    },
    documentsFile: (f) => ({ file: basename((f as ReturnType<typeof locateCacm>).collection), key: 'collection' }),
    documents: (f) => readCacmDocuments((f as ReturnType<typeof locateCacm>).collection),
    topics: (f) => readCacmTopics((f as ReturnType<typeof locateCacm>).topics),
    qrelsFile: (f) => (f as ReturnType<typeof locateCacm>).qrels,
  },
};

/** The collection's index for an analyzer, built once per documents checksum (collection-stamp.ts). */
async function collectionIndex(
  o: TrecRunOptions,
  c: TrecCollection,
  files: object,
  checksums: Record<string, string>,
  analyzer: AnalyzerConfig,
): Promise<string> {
  const name = `${o.collection}-${analyzer.preset ?? 'lexcase'}`;
  const dir = join(o.reproDir, 'collections', name);
  const stamp = `${dir}.data.json`;
  // the documents, the analyzer, and the index format and lexcase that build it (collection-stamp.ts): an index an older lexcase built is rebuilt, not reused
  const { file, key } = c.documentsFile(files);
  const want: CollectionStamp = {
    documents: { file, sha256: checksums[key] },
    analyzer,
    index: { format: MANIFEST_FORMAT, version: MANIFEST_VERSION, lexcaseVersion: VERSION },
  };
  const stale = await staleCollectionIndex(dir, stamp, want);
  if (!stale) return dir;
  if (stale !== 'absent') log.info(`${o.collection}: rebuilding ${dir}: ${stale}`);
  const docs = c.documents(files);
  log.info(`${o.collection}: indexing ${docs.length.toLocaleString('en-US')} documents (analyzer ${analyzer.preset ?? 'lexcase'}) into ${dir}`);
  await rm(dir, { recursive: true, force: true });
  await rm(stamp, { force: true });
  await mkdir(join(o.reproDir, 'collections'), { recursive: true });
  async function* passages() {
    yield* docs;
  }
  await buildIndex(passages(), { out: dir, corpusName: o.collection, workers: 0, analyzer, methods: ['bm25', 'qld'] });
  await writeFile(stamp, JSON.stringify(want));
  return dir;
}

export async function runTrecGridRun(o: TrecRunOptions): Promise<RunExperimentResult> {
  const c = COLLECTIONS[o.collection];
  if (!c) throw errors.invalidInput('collection', `"${o.collection}"; known: ${Object.keys(COLLECTIONS).join(', ')}`);
  const hits = o.hits ?? 1000;
  if (!Number.isInteger(hits) || hits < 1) throw errors.invalidInput('hits', `expected a positive integer, got ${hits}`);
  const measures = parseMeasures(o.metrics ?? ['map', 'p@30']);
  const ties = o.ties ?? 'none';
  const analyzer = resolveAnalyzerConfig(o.analyzer);
  const { files, checksums } = c.locate(o.data);
  const qrels = await loadQrels(c.qrelsFile(files));
  // trec_eval's topics: those with judgements (and, below, a result).
  const topics = c.topics(files).filter((t) => qrels.has(t.id));
  const items = o.limit !== undefined ? topics.slice(0, o.limit) : topics;
  const index = await collectionIndex(o, c, files, checksums, analyzer);
  // the index format and the lexcase that built the collection's index (its manifest.json, as its stamp records them)
  const manifest = await readManifest(index);
  const indexBuild = { format: manifest.format, version: manifest.version, lexcaseVersion: manifest.lexcaseVersion };
  // RM3's feedback documents in the run's tie order (ties 'anserini': Anserini's), recorded in the config.
  const retrieverOptions = withRm3Ties(o.retrieverOptions, ties);
  const retriever = await openRetriever(index, o.method, retrieverOptions);
  // a hybrid's fused scores keep 10 significant digits (retrieval/top-k.ts scoreText); Anserini's ties write its 4-decimal scores
  const digits = ties === 'anserini' ? undefined : retriever.scoreDigits;
  const search = async (t: Topic) => applyTies(await searchTopK((depth) => retriever.search(t.text, { k: depth }), hits, { ties, digits }), ties);
  const system: AgentSystem<Topic> = async (t) => {
    const res = await search(t);
    const judged = qrels.get(t.id)!;
    const ranked = trecOrder(runDocsOfHits(res, digits)).map((d) => judged.get(d.docid) ?? 0);
    const grades = [...judged.values()];
    // A topic without a hit has no run line: trec_eval skips it, so its measures are null (left out of the mean).
    const metrics: Record<string, number | null> = { retrieved: res.length };
    for (const m of measures) metrics[m.name] = res.length ? measureValue(m, { ranked, judged: grades, level: 1 }) : null;
    return { prediction: res[0]?.id ?? null, metrics, trace: { query: t.text, top10: res.slice(0, 10).map((h) => ({ id: h.id, score: h.score })) } };
  };
  const result = await runExperiment({
    runDir: o.runDir,
    lexcaseSystem: 'trec',
    system,
    items,
    gold: () => '',
    makeContext: contextFrom(),
    config: {
      system: 'trec',
      collection: o.collection,
      dataChecksums: checksums,
      method: o.method,
      analyzer,
      // which index format and lexcase built the index it searched (an older lexcase recorded none; resume-unrecorded.ts)
      indexBuild,
      // RM3 recorded with every parameter (its defaults may change; the run's may not).
      retriever: rm3Params(retrieverOptions) ? { ...retrieverOptions, rm3: rm3Params(retrieverOptions) } : retrieverOptions,
      hits,
      ties,
      // the top `hits` searched past ties at the cut (retrieval/top-k.ts): a run dir that cut first is refused on resume
      ranking: RETRIEVAL_RANKING,
      metrics: measures.map((m) => m.name),
      limit: o.limit ?? null,
    },
    seed: o.seed ?? 13,
    label: `${o.collection} ${o.method}`,
    replayOf: o.replayOf,
  });
  // The whole run as a TREC run file (searched again: deterministic, and complete after a resume).
  // the tag rule of `search --topics` (batch-search.ts): the retriever's method, bm25+rm3 for RM3
  const writer = new TrecRunWriter(join(o.runDir, 'run.txt'), `lexcase-${retriever.method}`, digits);
  const lengths: number[] = [];
  const noFeedback: string[] = [];
  try {
    for (const t of items) {
      const hitsOf = await search(t);
      lengths.push(hitsOf.length);
      if (await gainedNoFeedbackTerm(retriever, t.text)) noFeedback.push(t.id);
      await writer.add(t.id, hitsOf);
    }
  } catch (e) {
    await writer.discard();
    throw e;
  }
  await writer.close();
  // a measure cut deeper than the hits searched counts only those (run-depth.ts): said now, and in the table's notes
  const cut = runCut(lengths, measures, hits);
  if (cut) log.warn(`run ${basename(o.runDir)}: ${runCutText(cut, 'the run', (k) => `the recipe's "hits": ${k}`)}`);
  // RM3: topics whose expansion gained no feedback term rank as the base method (retrieval/rm3-no-feedback.ts)
  const rm3 = noFeedbackNote(noFeedback, items.length);
  if (rm3) log.warn(`run ${basename(o.runDir)}: ${rm3}`);
  return result;
}
