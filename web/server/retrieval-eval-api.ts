/**
 * The retrieval-evaluation view's endpoint: evaluate methods of the served index on a topics+qrels
 * set (eval-sets.ts) — metrics with their 95% intervals and the text the page prints (eval/stats),
 * Recall@k curves (the same Vega-Lite spec as the demo's report.md), each query's first relevant
 * rank per method, and the paired difference B − A of one metric between two methods (exact test,
 * paired-bootstrap interval). Results per (set, method) are kept for the server's lifetime. While a
 * method is evaluated, `progress` reports how many topics it has done (GET /api/eval/progress: the
 * view polls it during a long evaluation).
 *
 * Each set is evaluated by the code of the CLI command that evaluates it, so a figure has one value
 * under one name: a bundled Bar Exam QA split by eval/retrieval-eval.ts (`eval retrieval --dataset`),
 * a user's topics+qrels set by eval/trec/eval-index.ts `evalTopicsWith` with the CLI's defaults
 * (`eval retrieval --topics … --qrels …`: 1000 hits a topic, trec_eval's topic accounting — a judged
 * topic without a relevant document scores 0 and is in the mean —, graded nDCG, relevance level 1,
 * ties by docid descending). The whole query is searched; a query longer than QUERY_SHOWN characters
 * is shortened for display and the search-view link only, and the row says so (`queryTruncated`).
 */
import { z } from 'zod';
import type { Question } from '../../corpora/types.js';
import {
  diffIntervalText,
  diffText,
  figureText,
  type Interval,
  intervalText,
  methodLabel,
  METHODS_NOTE,
  pairedDifference,
  pairedNoteFor,
  MAX_RESAMPLES,
  MIN_RESAMPLES,
  RESAMPLES,
  SEED,
  testText,
  valueText,
} from '../../eval/stats/index.js';
import { recallCurve } from '../../eval/plots/recall-curve.js';
import { recallCurveSpec } from '../../eval/plots/specs.js';
import { evalRetrieval, MRR_K, NDCG_K, type QueryResult } from '../../eval/retrieval-eval.js';
import type { RankedQuery } from '../../eval/plots/recall-curve.js';
import { evalTopicsWith, judgedIdsOf } from '../../eval/trec/eval-index.js';
import { judgementsNotInIndex } from '../../eval/trec/qrels-in-index.js';
import { goldMissingLine, goldMissingOf, noGoldInIndexError } from '../../eval/gold-in-index.js';
import { DEFAULT_DEPTH } from '../../eval/trec/depth.js';
import { parseMeasures } from '../../eval/trec/measures.js';
import { noHitsLine } from '../../eval/trec/format.js';
import type { TrecEvalResult } from '../../eval/trec/evaluate.js';
import type { Qrels } from '../../corpora/qrels.js';
import type { EvalSet, EvalTopic, EvalTopics } from './eval-sets.js';
import { badRequest, decimalParam, notFound } from '../../serve/http/http-util.js';
import type { IndexContext } from './index-context.js';

export const EVAL_KS = [1, 5, 10, 20, 50, 100];
export const PAIRED_METRICS = ['recall@1', 'recall@10', 'recall@100', `mrr@${MRR_K}`, `ndcg@${NDCG_K}`] as const;

export const retrievalEvalQuerySchema = z
  .object({
    set: z.string().min(1).max(100),
    methods: z.string().min(1).max(100),
    a: z.string().max(20).optional(),
    b: z.string().max(20).optional(),
    metric: z.enum(PAIRED_METRICS).default('recall@10'),
    /**
     * The paired comparison's bootstrap resamples and seed (default the statistics module's: 2,000, 13), as
     * `eval run --compare --iterations --seed`: decimal digits only (before, z.coerce took `seed=` as seed 0).
     */
    iterations: decimalParam('iterations', MIN_RESAMPLES, MAX_RESAMPLES, RESAMPLES),
    seed: decimalParam('seed', 0, 2 ** 31 - 1, SEED),
  })
  /** Strict: a misspelt `metrc=ndcg@10` is a 400 naming it, not the default metric's comparison. */
  .strict();

/** Characters of a query shown (and put in the search view's link); the evaluation always uses the whole query. */
export const QUERY_SHOWN = 2000;

/** The explorer's metrics: Recall@k for EVAL_KS, MRR@10 and nDCG@10 (on user sets under trec_eval's definitions, graded nDCG). */
export const EVAL_METRICS = [...EVAL_KS.map((k) => `recall@${k}`), `mrr@${MRR_K}`, `ndcg@${NDCG_K}`];

/** One method on one set, whichever evaluator made it. */
export interface MethodEval {
  method: string;
  /** Topics in the means. */
  n: number;
  /** Topics of the set not in the means. */
  skipped: number;
  /** Why they are not (the page prints it): the same for every method of a set. */
  skippedNote: string;
  /** The topics this method got no hit for (scored 0, in the mean), or '': each method's own, all printed. */
  noHitsNote: string;
  /** Hits retrieved per topic. */
  depth: number;
  metrics: Record<string, Interval>;
  /** null with no scored question (nothing timed). */
  latency: { meanMs: number | null; p50Ms: number | null; p95Ms: number | null };
  perQuery: {
    id: string;
    /** Relevant documents of the topic (grade ≥ 1). */
    relevant: number;
    firstRank: number | null;
    values: Record<string, number>;
    ranked: RankedQuery;
  }[];
  /** User sets: the CLI's topic accounting (eval/trec/evaluate.ts). */
  topics?: TrecEvalResult['topics'];
  /** What the CLI warns of this method's figures (a cutoff beyond a hybrid's depth, dense queries read in part). */
  warnings: string[];
}

const datasetValues = (q: QueryResult): Record<string, number> => ({
  ...Object.fromEntries(EVAL_KS.map((k) => [`recall@${k}`, q.recall[k] ?? 0])),
  [`mrr@${MRR_K}`]: q.rr,
  [`ndcg@${NDCG_K}`]: q.ndcg,
});

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** A bundled split's topics as the questions `eval retrieval --dataset` evaluates (the query is the topic's whole text). */
const questionsOf = (topics: EvalTopic[]): Question[] =>
  topics.map((t) => ({ id: t.id, prompt: '', question: t.query, choices: [], answer: '', goldPassageIds: t.relevant }));

/** A bundled split: `eval retrieval --dataset` (eval/retrieval-eval.ts). */
async function evalDataset(ix: IndexContext, method: string, topics: EvalTopic[], onProgress: (done: number, total: number) => void): Promise<MethodEval> {
  const questions = questionsOf(topics);
  const r = await evalRetrieval({ retriever: await ix.retriever(method), questions, ks: EVAL_KS, queryOf: (q) => q.question, onProgress });
  return {
    method: r.method,
    n: r.n,
    skipped: r.skipped,
    skippedNote: `${plural(r.skipped, 'topic', 'topics')} without relevant passages skipped`,
    noHitsNote: r.noHits.count ? noHitsLine(r.method, r.noHits, undefined, 'topic') : '',
    depth: r.depth,
    metrics: r.metrics,
    latency: r.latency,
    warnings: r.warnings ?? [],
    perQuery: r.perQuery.map((x) => ({
      id: x.id,
      relevant: x.goldIds.length,
      firstRank: x.firstRank,
      values: datasetValues(x),
      ranked: { gold: x.goldIds.length, ranks: x.goldRanks ?? [] },
    })),
  };
}

/** A user's topics+qrels: `eval retrieval --topics … --qrels …` with its defaults (eval/trec/eval-index.ts). */
async function evalUserTopics(ix: IndexContext, method: string, topics: EvalTopic[], onProgress: (done: number, total: number) => void): Promise<MethodEval> {
  const qrels: Qrels = new Map(topics.flatMap((t) => (t.judged ? [[t.id, new Map(t.judged)] as const] : [])));
  const level = 1;
  const { batch, result, noHits, scores } = await evalTopicsWith(
    await ix.retriever(method),
    topics.map((t) => ({ id: t.id, text: t.query })),
    qrels,
    { k: DEFAULT_DEPTH, measures: parseMeasures(EVAL_METRICS), relevanceLevel: level, onProgress },
  );
  const ranked = scores.ranked(result.perTopic);
  const byQid = new Map(result.perTopic.map((t, i) => [t.qid, { t, ranked: ranked[i] }]));
  const order = topics.filter((t) => byQid.has(t.id)); // the topics file's order
  const skipped = topics.length - result.n;
  const notInQrels = result.topics.notInQrels.count;
  const noRel = result.topics.noRelevant.count;
  // judged topics the topics file has no line for: never searched, out of n (before 2026-12-05 said nowhere; the CLI
  // says "Skipped: 1 qrels topic missing from the run (q17); --complete counts it as 0")
  const qrelsOnly = (topics as EvalTopics).qrelsOnly ?? [];
  return {
    method: batch.method,
    n: result.n,
    skipped,
    skippedNote: [
      skipped ? `${plural(skipped, 'topic', 'topics')} skipped${notInQrels ? ` (${notInQrels} not in the qrels)` : ''}` : '',
      noRel ? `${plural(noRel, 'judged topic', 'judged topics')} without a relevant document scored 0 and in the mean (trec_eval)` : '',
      qrelsOnly.length
        ? `${plural(qrelsOnly.length, 'judged topic', 'judged topics')} with no line in the topics file not searched and left out of n (${qrelsOnly.slice(0, 3).join(', ')}${qrelsOnly.length > 3 ? ', …' : ''}; \`eval retrieval --complete\` counts ${qrelsOnly.length === 1 ? 'it' : 'them'} as 0)`
        : '',
    ]
      .filter(Boolean)
      .join('; '),
    // searched with no hit: scored 0 and in the mean (eval-index.ts), as the CLI says
    noHitsNote: noHits.count ? noHitsLine(batch.method, noHits, undefined) : '',
    depth: DEFAULT_DEPTH,
    metrics: result.means,
    warnings: [batch.queriesCut, batch.querySource].filter((w): w is string => !!w),
    latency: { meanMs: batch.latency.meanMs, p50Ms: batch.latency.p50Ms, p95Ms: batch.latency.p95Ms },
    perQuery: order.map((topic) => {
      const { t, ranked: rq } = byQid.get(topic.id)!;
      // the first relevant document's rank (trec_eval order, grade ≥ level), kept as the topic was scored
      return { id: t.qid, relevant: t.numRel, firstRank: rq.ranks[0] ?? null, values: t.values, ranked: rq };
    }),
    topics: result.topics,
  };
}

/**
 * What the CLI says of a set's relevant passages the index does not hold, before any figure: a
 * bundled split none of whose gold passages is in the index is refused (every metric would be 0),
 * some missing are a warning (they count as misses); a user set's relevant judgements naming ids not
 * in the index are a warning (eval/trec/qrels-in-index.ts).
 */
async function relevantNotInIndex(ix: IndexContext, set: EvalSet, topics: EvalTopic[]): Promise<string[]> {
  if (set.kind === 'topics') {
    const qrels: Qrels = new Map(topics.flatMap((t) => (t.judged ? [[t.id, new Map(t.judged)] as const] : [])));
    const w = await judgementsNotInIndex(
      qrels,
      topics.map((t) => t.id),
      1,
      await judgedIdsOf(ix.docs, undefined),
      'this index',
    );
    return w ? [w] : [];
  }
  const missing = goldMissingOf(ix.docs, questionsOf(topics));
  const withGold = topics.filter((t) => t.relevant.length > 0).length;
  if (!missing.questions) return [];
  if (missing.questions === withGold) throw noGoldInIndexError(missing, `${withGold} topics of set "${set.label}"`, 'this index', ix.manifest.corpus.name);
  return [goldMissingLine(missing, withGold, 'topic', true)];
}

const flat = (s: string, n: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1).trimEnd()}…`;
};

export const evalProgressQuerySchema = z.object({ set: z.string().min(1).max(100), methods: z.string().min(1).max(100) }).strict();

export function createRetrievalEval(ix: IndexContext, sets: EvalSet[]) {
  // per set and method, the evaluation of the topics it was made from: a set read again (its files
  // changed on disk, eval-sets.ts) is a new topics array, evaluated afresh, never the old figures
  const results = new Map<string, { topics: EvalTopic[]; p: Promise<MethodEval> }>();
  const progress = new Map<string, { done: number; total: number; finished: boolean }>();
  const keyOf = (setId: string, method: string) => `${setId}\u0000${method}`;
  const run = (set: EvalSet, method: string, topics: EvalTopic[]) => {
    const key = keyOf(set.id, method);
    const hit = results.get(key);
    let p = hit && hit.topics === topics ? hit.p : undefined;
    if (!p) {
      const st = { done: 0, total: topics.length, finished: false };
      progress.set(key, st);
      const onProgress = (done: number, total: number) => Object.assign(st, { done, total });
      p = set.kind === 'topics' ? evalUserTopics(ix, method, topics, onProgress) : evalDataset(ix, method, topics, onProgress);
      const entry = { topics, p };
      results.set(key, entry);
      p.then(
        () => (st.finished = true),
        () => {
          if (results.get(key) !== entry) return;
          results.delete(key);
          progress.delete(key);
        },
      );
    }
    return p;
  };
  return {
    sets: () => ({ sets: sets.map((s) => ({ id: s.id, label: s.label })), methods: ix.methods, metrics: PAIRED_METRICS }),
    /** Per method: topics done of total, and whether it finished (absent: not started yet). */
    progress(q: z.infer<typeof evalProgressQuerySchema>) {
      const methods = [
        ...new Set(
          q.methods
            .split(',')
            .map((m) => m.trim())
            .filter(Boolean),
        ),
      ];
      return { methods: methods.map((m) => ({ method: m, ...(progress.get(keyOf(q.set, m)) ?? { done: 0, total: null, finished: false }) })) };
    },
    async evaluate(q: z.infer<typeof retrievalEvalQuerySchema>) {
      const set = sets.find((s) => s.id === q.set);
      if (!set) throw notFound(`no topics+qrels set "${q.set}"`);
      const methods = [
        ...new Set(
          q.methods
            .split(',')
            .map((m) => m.trim())
            .filter(Boolean),
        ),
      ];
      for (const m of methods)
        if (!ix.methods.includes(m)) throw badRequest(`retrieval eval: field "methods": "${m}" is not a method of this index (${ix.methods.join(', ')})`);
      if (methods.length === 0) throw badRequest('retrieval eval: field "methods": give at least one method');
      const topics = await set.load();
      const setWarnings = await relevantNotInIndex(ix, set, topics);
      const res: MethodEval[] = [];
      for (const m of methods) res.push(await run(set, m, topics));
      const curve = res.flatMap((r) =>
        recallCurve(
          r.method,
          r.perQuery.map((x) => x.ranked),
          r.depth,
        ),
      );
      const byId = new Map(topics.map((t) => [t.id, t]));
      const rows = res[0].perQuery.map((x) => {
        const query = byId.get(x.id)!.query;
        return {
          id: x.id,
          // the whole query was evaluated; a long one is shortened here (display, search-view link) and says so
          query: query.slice(0, QUERY_SHOWN),
          queryChars: query.length,
          queryTruncated: query.length > QUERY_SHOWN,
          short: flat(query, 160),
          relevant: x.relevant,
          // every relevant id: the search view counts and marks them (a cut list made it say "50 of the topic's 50" for 80)
          relevantIds: byId.get(x.id)!.relevant,
          firstRank: Object.fromEntries(res.map((r) => [r.method, r.perQuery.find((y) => y.id === x.id)?.firstRank ?? null])),
        };
      });
      let paired = null;
      // the settings the paired figures are computed with, and the footnote names (pairedNoteFor: as `eval run --compare`)
      const bootstrap = { iterations: q.iterations, seed: q.seed };
      const a = q.a ?? methods[0];
      const b = q.b ?? methods[1];
      if (a && b && a !== b) {
        const ra = res.find((r) => r.method === a);
        const rb = res.find((r) => r.method === b);
        if (!ra || !rb) throw badRequest(`retrieval eval: fields "a"/"b" must be among the evaluated methods (${methods.join(', ')})`);
        const mb = new Map(rb.perQuery.map((x) => [x.id, x]));
        const shared = ra.perQuery.filter((x) => mb.has(x.id));
        // B − A, as every comparison: the second method minus the first
        const d = pairedDifference(
          shared.map((x) => x.values[q.metric] ?? 0),
          shared.map((x) => mb.get(x.id)!.values[q.metric] ?? 0),
          bootstrap,
        );
        paired = {
          a,
          b,
          sign: 'B − A',
          metric: q.metric,
          n: shared.length,
          estimate: d.estimate,
          lo: d.lo,
          hi: d.hi,
          p: d.p,
          test: d.test,
          bootstrap,
          text: { diff: diffText(d.estimate, 'decimal'), interval: diffIntervalText(d, 'decimal'), pLine: testText(d) },
        };
      }
      return {
        set: { id: set.id, label: set.label, n: topics.length },
        kind: set.kind,
        skipped: res[0].skipped,
        // the set's skipped topics (one for all methods), then every method's no-hit topics: only the
        // first method's were shown, so a second method's no-hit topics, scored 0, went unsaid
        skippedNote: [res[0].skippedNote, ...res.map((r) => r.noHitsNote)].filter(Boolean).join('; '),
        // what a reader must know to read the figures right, as the CLI warns it
        warnings: [...setWarnings, ...res.flatMap((r) => r.warnings.map((w) => `${r.method}: ${w}`))],
        depth: res[0].depth,
        queryShown: QUERY_SHOWN,
        ks: EVAL_KS,
        methods,
        methodsNote: METHODS_NOTE,
        pairedNote: pairedNoteFor(bootstrap),
        results: res.map((r) => ({
          method: r.method,
          n: r.n,
          metrics: Object.fromEntries(
            Object.entries(r.metrics).map(([k, c]) => [
              k,
              {
                estimate: c.estimate,
                lo: c.lo,
                hi: c.hi,
                method: methodLabel(c),
                text: figureText(c, 'decimal'),
                value: valueText(c.estimate, 'decimal'),
                interval: intervalText(c, 'decimal'),
              },
            ]),
          ),
          latency: r.latency,
          ...(r.topics ? { topics: r.topics } : {}),
        })),
        curveSpec: recallCurveSpec(curve, `Recall@k — ${set.label} (95% interval bands)`),
        queries: rows,
        paired,
      };
    },
  };
}
