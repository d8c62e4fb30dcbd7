/**
 * The retrieval-evaluation view's endpoint: evaluate methods of the served index on a topics+qrels
 * set (eval-sets.ts) with eval/retrieval-eval.ts — metrics with their 95% intervals and the text the
 * page prints (eval/stats), Recall@k curves (the same Vega-Lite spec as the demo's report.md), each
 * query's first relevant rank per method, and the paired difference B − A of one metric between two
 * methods (exact test, paired-bootstrap interval). Results per (set, method)
 * are kept for the server's lifetime. While a method is evaluated, `progress` reports how many
 * topics it has done (GET /api/eval/progress: the view polls it during a long evaluation).
 */
import { z } from 'zod';
import type { Question } from '../../corpora/types.js';
import {
  diffIntervalText,
  diffText,
  figureText,
  intervalText,
  methodLabel,
  METHODS_NOTE,
  PAIRED_NOTE,
  pairedDifference,
  testText,
  valueText,
} from '../../eval/stats/index.js';
import { recallCurve } from '../../eval/plots/recall-curve.js';
import { recallCurveSpec } from '../../eval/plots/specs.js';
import { evalRetrieval, MRR_K, NDCG_K, type QueryResult, type RetrievalEvalResult } from '../../eval/retrieval-eval.js';
import type { EvalSet } from './eval-sets.js';
import { badRequest, notFound } from '../../serve/http/http-util.js';
import type { IndexContext } from './index-context.js';

export const EVAL_KS = [1, 5, 10, 20, 50, 100];
export const PAIRED_METRICS = ['recall@1', 'recall@10', 'recall@100', `mrr@${MRR_K}`, `ndcg@${NDCG_K}`] as const;

export const retrievalEvalQuerySchema = z.object({
  set: z.string().min(1).max(100),
  methods: z.string().min(1).max(100),
  a: z.string().max(20).optional(),
  b: z.string().max(20).optional(),
  metric: z.enum(PAIRED_METRICS).default('recall@10'),
});

const perQueryValue = (q: QueryResult, metric: string): number =>
  metric.startsWith('recall@') ? (q.recall[Number(metric.slice(7))] ?? 0) : metric.startsWith('mrr@') ? q.rr : q.ndcg;

const flat = (s: string, n: number) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1).trimEnd()}…`;
};

export const evalProgressQuerySchema = z.object({ set: z.string().min(1).max(100), methods: z.string().min(1).max(100) });

export function createRetrievalEval(ix: IndexContext, sets: EvalSet[]) {
  const results = new Map<string, Promise<RetrievalEvalResult>>();
  const progress = new Map<string, { done: number; total: number; finished: boolean }>();
  const keyOf = (setId: string, method: string) => `${setId}\u0000${method}`;
  const run = (set: EvalSet, method: string, questions: Question[]) => {
    const key = keyOf(set.id, method);
    let p = results.get(key);
    if (!p) {
      const st = { done: 0, total: questions.length, finished: false };
      progress.set(key, st);
      p = ix
        .retriever(method)
        .then((retriever) =>
          evalRetrieval({ retriever, questions, ks: EVAL_KS, queryOf: (q) => q.question, onProgress: (done, total) => Object.assign(st, { done, total }) }),
        );
      results.set(key, p);
      p.then(
        () => (st.finished = true),
        () => {
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
      const questions: Question[] = topics.map((t) => ({
        id: t.id,
        prompt: '',
        question: t.query.slice(0, 2000),
        choices: [],
        answer: '',
        goldPassageIds: t.relevant,
      }));
      const res: RetrievalEvalResult[] = [];
      for (const m of methods) res.push(await run(set, m, questions));
      const curve = res.flatMap((r) =>
        recallCurve(
          r.method,
          r.perQuery.map((x) => ({ gold: x.goldIds.length, ranks: x.goldRanks ?? [] })),
          r.depth,
        ),
      );
      const byId = new Map(topics.map((t) => [t.id, t]));
      const rows = res[0].perQuery.map((x) => ({
        id: x.id,
        query: byId.get(x.id)!.query.slice(0, 2000),
        short: flat(byId.get(x.id)!.query, 160),
        relevant: x.goldIds.length,
        relevantIds: x.goldIds.slice(0, 50),
        firstRank: Object.fromEntries(res.map((r) => [r.method, r.perQuery.find((y) => y.id === x.id)?.firstRank ?? null])),
      }));
      let paired = null;
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
          shared.map((x) => perQueryValue(x, q.metric)),
          shared.map((x) => perQueryValue(mb.get(x.id)!, q.metric)),
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
          text: { diff: diffText(d.estimate, 'decimal'), interval: diffIntervalText(d, 'decimal'), pLine: testText(d) },
        };
      }
      return {
        set: { id: set.id, label: set.label, n: topics.length },
        skipped: res[0].skipped,
        ks: EVAL_KS,
        methods,
        methodsNote: METHODS_NOTE,
        pairedNote: PAIRED_NOTE,
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
        })),
        curveSpec: recallCurveSpec(curve, `Recall@k — ${set.label} (95% interval bands)`),
        queries: rows,
        paired,
      };
    },
  };
}
