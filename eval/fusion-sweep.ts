/**
 * `sweepFusion`: tune hybrid fusion on a split (meant for train). Each component method is run once
 * per question (query = prompt + "\n" + question, as in `eval retrieval`) to the deepest depth of the
 * grid; every fusion setting (component subset, rrf/weighted, RRF k, weights, depth per component)
 * is then scored from those cached runs, so a grid of dozens of settings costs one pass of queries.
 *
 * Selection rule: the setting whose worst margin over the best single method, min over the cutoffs of
 * (Recall@k(setting) − max over single methods of Recall@k), is largest; ties → larger mean recall,
 * then grid order. A fusion default chosen this way is never worse than its best input on the
 * split it was chosen on; `eval retrieval` on val shows whether that holds out of sample.
 */
import { errors } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { datasetChecksum, fileChecksum, loadQuestions } from '../corpora/registry.js';
import { indexContent, readManifest } from '../indexer/manifest.js';
import { runGitSha } from './provenance.js';
import { DEFAULT_SPLIT_SEED } from '../corpora/splits.js';
import type { Split } from '../corpora/types.js';
import { defaultFusionWeight, fuse, type FusionMethod } from '../retrieval/fusion.js';
import { HYBRID_SCORE_DIGITS } from '../retrieval/hybrid.js';
import { shareOptions } from '../retrieval/method-options.js';
import { openRetriever } from '../retrieval/open.js';
import type { Hit } from '../retrieval/types.js';
import { retrievalQuery } from '../corpora/barexam.js';
import { recallAtK } from './metrics/index.js';
import { trecRankedIds } from './trec/order.js';
import { searchTopK } from '../retrieval/top-k.js';
import { cutoffsBeyondDepth } from '../retrieval/ranking-depth.js';
import { MRR_K, NDCG_K } from './retrieval-eval.js';

export interface FusionSetting {
  methods: string[];
  fusion: FusionMethod;
  rrfK?: number;
  weights?: Record<string, number>;
  /** Hits per component before fusion. */
  depth: number;
}

export interface SweepRow {
  label: string;
  setting?: FusionSetting;
  /** A setting's `eval retrieval` flags that evaluate it with the live hybrid (every value given: the hybrid's defaults are not the grid's). */
  flags?: string;
  /** Mean Recall@k per cutoff. */
  recall: Record<number, number>;
  /** min over cutoffs of (recall − best single method's recall); singles: 0 for the best. */
  margin: number;
}

export interface FusionSweepResult {
  kind: 'fusion-sweep';
  lexcaseVersion: string;
  /** lexcase's commit (eval/provenance.ts runGitSha). */
  gitSha: string;
  createdAt: string;
  index: string;
  /** What the index holds, as `eval retrieval`'s report records it (indexer/manifest.ts indexContent). */
  indexContent: Record<string, unknown>;
  /** The questions tuned on: dataset, split, split seed, the file read's checksum (and the file, where one was given). */
  dataset: { name: string; split: Split; n: number; splitSeed: number; checksum: string; file?: string };
  /** Each component's recorded settings (Retriever.config: bm25's k1 and b, qld's mu, dense's query rule), where it has them. */
  components: Record<string, Record<string, unknown>>;
  split: Split;
  n: number;
  ks: number[];
  /**
   * The command that evaluates the chosen setting on another split with the live hybrid: the sweep's own
   * command line (its component settings, split seed, dataset file, cutoffs) with the setting's flags;
   * set by the CLI (which knows the command line), absent for a library call and a sweep over split all.
   */
  heldOut?: { split: Split; command: string };
  singles: SweepRow[];
  settings: SweepRow[];
  best: SweepRow;
  /**
   * Cutoffs deeper than a setting's depth: its fused list holds at most the union of each component's
   * top `depth`, so its Recall@k counts only passages a component ranks that high (as the live hybrid's
   * does: retrieval/ranking-depth.ts). One sentence per such depth; absent when none.
   */
  warnings?: string[];
}

/**
 * A setting's label, every weight written: equal weights too (w=bm25:1,qld:1), since the live hybrid's
 * default for bm25,qld,dense with RRF is not equal (retrieval/hybrid-defaults.ts): a row labelled
 * without weights and rerun without --weights was another setting.
 */
export function settingLabel(s: FusionSetting): string {
  const w = ` w=${s.methods.map((m) => `${m}:${Number(weightIn(s, m).toPrecision(4))}`).join(',')}`;
  return `${s.fusion}(${s.methods.join('+')})${s.fusion === 'rrf' ? ` k=${s.rrfK ?? 60}` : ''}${w} depth=${s.depth}`;
}

/** The weight `s` fuses method `m` with: its own, else fusion's rule for an unnamed one (1 for RRF, 1/n weighted). */
function weightIn(s: FusionSetting, m: string): number {
  return s.weights?.[m] ?? defaultFusionWeight(s.fusion, s.methods.length);
}

/** The `eval retrieval` flags that evaluate `s` with the live hybrid, every value given. */
export function settingFlags(s: FusionSetting): string {
  const weights = s.methods.map((m) => `${m}=${weightIn(s, m)}`).join(',');
  const rrf = s.fusion === 'rrf' ? ` --rrf-k ${s.rrfK ?? 60}` : '';
  return `--method hybrid --hybrid-methods ${s.methods.join(',')} --fusion ${s.fusion}${rrf} --weights ${weights} --depth ${s.depth}`;
}

/**
 * The default grid: bm25+dense, bm25+qld, bm25+qld+dense; RRF with k ∈ {10, 60, 100}, dense weight ∈ {1, 0.5},
 * qld weight ∈ {1, 1.5, 2} and bm25 weight ∈ {1, 0.5} (where qld is fused); weighted min-max fusion
 * (CombSUM) with equal weights and with qld at twice the others; depth per component ∈ {100, 1000}.
 * It contains HYBRID_DEFAULTS (RRF k = 100, bm25 0.5, qld 1.5, dense 1, depth 1,000).
 */
export function defaultFusionGrid(components: string[]): FusionSetting[] {
  const subsets: string[][] = [];
  const has = (m: string) => components.includes(m);
  if (has('bm25') && has('dense')) subsets.push(['bm25', 'dense']);
  if (has('bm25') && has('qld')) subsets.push(['bm25', 'qld']);
  if (has('bm25') && has('qld') && has('dense')) subsets.push(['bm25', 'qld', 'dense']);
  if (subsets.length === 0 && components.length > 1) subsets.push(components);
  const weightsOf = (methods: string[], dw: number, qw: number, bw: number) =>
    dw === 1 && qw === 1 && bw === 1 ? undefined : Object.fromEntries(methods.map((m) => [m, m === 'dense' ? dw : m === 'qld' ? qw : m === 'bm25' ? bw : 1]));
  const grid: FusionSetting[] = [];
  for (const methods of subsets)
    for (const depth of [100, 1000]) {
      for (const rrfK of [10, 60, 100])
        for (const dw of methods.includes('dense') ? [1, 0.5] : [1])
          for (const qw of methods.includes('qld') ? [1, 1.5, 2] : [1])
            for (const bw of methods.includes('qld') ? [1, 0.5] : [1]) {
              const weights = weightsOf(methods, dw, qw, bw);
              grid.push({ methods, fusion: 'rrf', rrfK, depth, ...(weights ? { weights } : {}) });
            }
      grid.push({ methods, fusion: 'weighted', depth });
      if (methods.includes('qld')) {
        const n = methods.length + 1;
        grid.push({ methods, fusion: 'weighted', depth, weights: Object.fromEntries(methods.map((m) => [m, (m === 'qld' ? 2 : 1) / n])) });
      }
    }
  return grid;
}

export async function sweepFusion(opts: {
  index: string;
  components?: string[];
  dataset?: string;
  split?: Split;
  splitSeed?: number;
  /** Read the dataset from this file instead of the bundled copy. */
  datasetFile?: string;
  ks?: number[];
  grid?: FusionSetting[];
  retrieverOptions?: Record<string, unknown>;
  onProgress?: (method: string, done: number, total: number) => void;
}): Promise<FusionSweepResult> {
  const split = opts.split ?? 'train';
  const ks = opts.ks ?? [10, 100];
  const components = opts.components ?? ['bm25', 'qld', 'dense'];
  // one method has nothing to fuse (before: "Reduce of empty array with no initial value")
  if (components.length < 2)
    throw errors.invalidInput('--method', `the fusion sweep fuses two or more methods, got ${components.length === 1 ? `only "${components[0]}"` : 'none'}`);
  const grid = opts.grid ?? defaultFusionGrid(components);
  const splitSeed = opts.splitSeed ?? DEFAULT_SPLIT_SEED;
  const questions = (await loadQuestions(opts.dataset ?? 'barexam', split, { seed: splitSeed, file: opts.datasetFile })).filter(
    (q) => q.goldPassageIds.length > 0,
  );
  const maxDepth = Math.max(...ks, ...grid.map((g) => g.depth));
  // Hits ranked as `eval retrieval` ranks them (trec_eval's order of the run file's scores), at its depth.
  const evalDepth = Math.max(...ks, MRR_K, NDCG_K);
  // Each component's top d for every grid depth d, as the hybrid retriever fuses it (its printed run:
  // trec_eval's order, ties at the cut as everywhere, retrieval/top-k.ts), and, for its single row, its top
  // evalDepth as `eval retrieval` cuts it. A retriever's top d is the first d of its deeper ranking,
  // so each is cut from one search to maxDepth; only a tie reaching past maxDepth searches again.
  const depths = [...new Set([evalDepth, ...grid.map((g) => g.depth)])];
  const runs: Record<string, Map<number, Hit[]>[]> = {};
  const configs: Record<string, Record<string, unknown>> = {};
  const optionsOf = shareOptions(opts.retrieverOptions, components, 'fusion sweep');
  for (const m of components) {
    const r = await openRetriever(opts.index, m, optionsOf(m));
    if (r.config) configs[m] = r.config;
    runs[m] = [];
    for (const q of questions) {
      const hits = await r.search(retrievalQuery(q), { k: maxDepth });
      const cut = (depth: number) =>
        searchTopK(async (d) => (d <= maxDepth ? hits.slice(0, d) : r.search(retrievalQuery(q), { k: d })), depth, {
          digits: r.scoreDigits,
          who: `retriever ${r.method}, question "${q.id}"`,
        });
      runs[m].push(new Map(await Promise.all(depths.map(async (d) => [d, await cut(d)] as const))));
      opts.onProgress?.(m, runs[m].length, questions.length);
    }
  }
  const top = (m: string, i: number, depth: number) => runs[m][i].get(depth)!;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const recallOf = (ranked: (i: number) => string[]) =>
    Object.fromEntries(ks.map((k) => [k, mean(questions.map((q, i) => recallAtK(ranked(i), q.goldPassageIds, k)))]));
  const singles: SweepRow[] = components.map((m) => ({ label: m, recall: recallOf((i) => trecRankedIds(top(m, i, evalDepth))), margin: 0 }));
  const bestSingle = Object.fromEntries(ks.map((k) => [k, Math.max(...singles.map((s) => s.recall[k]))]));
  const marginOf = (rec: Record<number, number>) => Math.min(...ks.map((k) => rec[k] - bestSingle[k]));
  for (const s of singles) s.margin = marginOf(s.recall);
  // Each setting's fused ranking cut at evalDepth as the live hybrid's is (searchTopK: past a tie at the cut, past its depth too)
  const settings: SweepRow[] = [];
  for (const g of grid) {
    const fused = (i: number) => (d: number) =>
      Promise.resolve(
        fuse(
          g.fusion,
          g.methods.map((m) => ({ method: m, hits: top(m, i, g.depth) })),
          { k: d, rrfK: g.rrfK, weights: g.weights },
        ),
      );
    // fused scores as the hybrid's run file writes them (10 significant digits: retrieval/top-k.ts scoreText)
    const ranked = await Promise.all(
      questions.map(async (_, i) => trecRankedIds(await searchTopK(fused(i), evalDepth, { digits: HYBRID_SCORE_DIGITS }), HYBRID_SCORE_DIGITS)),
    );
    const recall = recallOf((i) => ranked[i]);
    settings.push({ label: settingLabel(g), setting: g, flags: settingFlags(g), recall, margin: marginOf(recall) });
  }
  const avg = (r: SweepRow) => mean(ks.map((k) => r.recall[k]));
  const best = settings.reduce((a, b) => (b.margin > a.margin + 1e-12 || (Math.abs(b.margin - a.margin) <= 1e-12 && avg(b) > avg(a) + 1e-12) ? b : a));
  // a cutoff past a setting's depth scores fewer hits than it names: said, as `eval retrieval --method hybrid` says it
  const warnings = [...new Set(grid.map((g) => g.depth))]
    .sort((a, b) => a - b)
    .flatMap((d) => {
      const beyond = cutoffsBeyondDepth('hybrid', d, ks);
      return beyond ? [`the depth=${d} settings' Recall${beyond}`] : [];
    });
  // the chosen setting's figures are the best of the grid on these very questions: in-sample unless they are the tuning split
  if (split !== 'train')
    warnings.push(
      `the setting is chosen on the ${split} split and its figures are of the same ${questions.length} questions: they are the best of ${grid.length} settings there, not an estimate for new questions (tune on train, then evaluate the chosen setting on ${split} with eval retrieval --method hybrid)`,
    );
  const dataset = opts.dataset ?? 'barexam';
  const manifest = await readManifest(opts.index);
  return {
    kind: 'fusion-sweep',
    lexcaseVersion: VERSION,
    gitSha: runGitSha().gitSha,
    createdAt: new Date().toISOString(),
    index: opts.index,
    indexContent: indexContent(manifest),
    dataset: {
      name: dataset,
      split,
      n: questions.length,
      splitSeed,
      checksum: opts.datasetFile ? await fileChecksum(opts.datasetFile) : await datasetChecksum(dataset),
      ...(opts.datasetFile ? { file: opts.datasetFile } : {}),
    },
    components: configs,
    split,
    n: questions.length,
    ks,
    singles,
    settings,
    best,
    ...(warnings.length ? { warnings } : {}),
  };
}

export function formatFusionSweep(r: FusionSweepResult): string {
  const head = `| setting | ${r.ks.map((k) => `Recall@${k}`).join(' | ')} | margin vs best single |`;
  const sep = `|---|${r.ks.map(() => '---').join('|')}|---|`;
  const row = (x: SweepRow, mark = '') =>
    `| ${mark}${x.label}${mark} | ${r.ks.map((k) => x.recall[k].toFixed(3)).join(' | ')} | ${x.margin >= 0 ? '+' : ''}${x.margin.toFixed(3)} |`;
  return [
    `Fusion sweep on the ${r.split} split of ${r.dataset.file ?? r.dataset.name} (split seed ${r.dataset.splitSeed}; n = ${r.n} questions with gold passages). Margin = min over cutoffs of (Recall@k − best single method's Recall@k); the chosen setting (bold) has the largest margin.`,
    '',
    head,
    sep,
    ...r.singles.map((s) => row(s)),
    ...r.settings.map((s) => row(s, s === r.best ? '**' : '')),
    ...(r.heldOut
      ? ['', `The chosen setting, held out on ${r.heldOut.split}: \`${r.heldOut.command}\` (every weight given: the hybrid's default weights are not equal).`]
      : []),
    ...(r.warnings?.length ? ['', ...r.warnings.map((w) => `**Warning:** ${w}.`)] : []),
  ].join('\n');
}
