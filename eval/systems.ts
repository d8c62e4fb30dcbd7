/**
 * The system list as eval sees it: one entry per kind of run lexcase writes (config.json's
 * `system`), and every per-system fact any layer reads — display name, run command and its run-dir
 * flag, whether it takes an index (or a --data dir), the explorer's trace view, the report section,
 * how to read its method / k from the config, and its headline metrics. eval's own systems
 * (retrieval, TREC, a reproduction) are written here; the agent systems are one list in
 * agents/systems.ts (each entry an agents/<system>/plugin.ts `SystemPlugin`), which hands itself to
 * eval with `useSystems` — eval cannot import agents. Readers: the reproduce runner
 * (eval/reproduce/recipe.ts `runSystems`, run-argv.ts), the report (eval/report/registry.ts loads a
 * run's section from its plugin), the explorer (/api/info, headline figures in /api/runs/summary, the
 * trace view `traceKindOf` with each trace), the CLI (`lexcase run <id>` from a plugin's schema) and
 * the library (`systemSpec`, `headlineFigures`). A new agent system is its folder plus its entry in
 * agents/systems.ts (docs/architecture.md, "How to add an agent system").
 *
 * Intervals come from the one statistics module (eval/stats/): a proportion (accuracy, Recall@k
 * with one gold passage per query, a convergence or abstention rate) gets a Wilson score interval,
 * honest at any n; any other figure (MRR, macro-F1, pooled factor ratios) a seeded percentile
 * bootstrap (seed 13, 2,000 resamples), left out below MIN_N = 10 items. Each figure carries the
 * name of its method and its printed text, so report.md, the explorer and the /v1 API print the
 * same thing. Retrieval measures (Recall@k, MRR) are decimals, never percentages. Every figure
 * below SMALL_N items carries a small-n warning.
 */
import {
  figureText,
  methodLabel,
  MIN_N,
  perItemInterval,
  proportionInterval,
  statisticInterval,
  type Interval,
  type MeasureKind,
  type Unit,
} from './stats/index.js';
import { classificationReport } from './metrics/classification.js';
import { correctFlags, isFailed, scoredPrediction } from './metrics/failures.js';
import type { ResultRecord } from './types.js';
import type { SectionBuilder } from './report/types.js';
import type { CliRunContext, CliRunResult, CliSchema } from './cli-schema.js';

/** ACAL's answer labels (agents/acal/metrics.ts reads them from here: one definition). */
export const ACAL_LABELS = ['Yes', 'No'] as const;

/** Below this n every figure is flagged "small n". */
export const SMALL_N = 30;
/** Below this n no bootstrap interval is given (eval/stats/settings.ts MIN_N). */
export const MIN_BOOTSTRAP_N = MIN_N;

export type IntervalKind = 'wilson' | 'bootstrap' | 'none';

/** One headline figure of a run: a proportion shown as % (`unit: 'percent'`), or a decimal (retrieval measures, `unit: 'decimal'`). */
export interface HeadlineFigure {
  id: string;
  label: string;
  estimate: number;
  /** null when no interval is given (n below MIN_N for a bootstrap figure). */
  lo: number | null;
  hi: number | null;
  /** Items the figure is computed over. */
  n: number;
  /** The interval's method ('none' where no interval is given). */
  interval: IntervalKind;
  /** The measure kind that chose the method (eval/stats/methods.ts). */
  kind: MeasureKind;
  unit: Unit;
  /** unit === 'percent'. */
  percent: boolean;
  /** The method's printed name: "95% Wilson", "95% bootstrap", or "no interval: n < 10". */
  method: string;
  /** The figure as every surface prints it: "50.0% [15.0, 85.0]", "0.032 [0.021, 0.045]". */
  text: string;
  /** Set below SMALL_N items. */
  smallN: boolean;
  /** e.g. "over the 1 triple designed for abstention". */
  note?: string;
}

export interface FigureContext {
  config: Record<string, unknown>;
  /** Bootstrap seed and resamples; default the statistics module's (13, 2,000) — the same on every surface. */
  seed?: number;
  iterations?: number;
}

export interface HeadlineMetric {
  id: string;
  label: string;
  /** The figures this metric gives for a run: none when its records cannot give it (no item carries the metric), several for one per k. */
  compute(records: readonly ResultRecord[], ctx: FigureContext): HeadlineFigure[];
}

/** The explorer's trace views (web/app/run-view.ts has one renderer per kind). */
export const TRACE_KINDS = ['case', 'acal', 'mad', 'emar', 'threeply', 'retrieval', 'baseline', 'other'] as const;
export type TraceKind = (typeof TRACE_KINDS)[number];

/** How a system runs: `lexcase run <id>` (a child process of `reproduce`), or in process. */
export interface RunSpec {
  /** `cli`: `lexcase run <id> …`; `in-process`: the reproduce runner runs it itself, no LLM (retrieval-run.ts, trec-run.ts). */
  via: 'cli' | 'in-process';
  /** The flag that names the run directory (`lexcase run <id> --run-dir DIR`). */
  runDirFlag: '--run-dir';
  /** It searches an index: `reproduce --index DIR` is passed on as `--index DIR`. */
  takesIndex: boolean;
  /** It reads a user-supplied dataset dir: `reproduce --data DIR` is passed on as `--data DIR`. */
  takesData: boolean;
  /** `--limit N` caps its items (3-ply caps its `--n` instead). */
  limit: 'limit' | 'n';
}

export interface SystemSpec {
  /** Registry key (and `lexcase run <id>` / a recipe run's `system` when `run` is set). */
  id: string;
  /** Display name. */
  name: string;
  /** config.json `system` values this entry covers. */
  matches(configSystem: string): boolean;
  /** How it runs; absent for runs no recipe can ask for (a reproduction's own record). */
  run?: RunSpec;
  /** Which trace view the explorer gives its items (the server sends it with each trace: traceKindOf). */
  traceKind: TraceKind;
  /** The id of the report section registered for its runs (`registerReportSection`), if any. */
  reportSection: string | null;
  /** The retrieval method, mode or variant a run used, for the runs list. */
  method(config: Record<string, unknown>): string | null;
  /** The k (passages per search) a run used, for the runs list (a list of ks for retrieval runs). */
  k(config: Record<string, unknown>): string | null;
  headline: readonly HeadlineMetric[];
  /** A retrieval run: judged by retrieval measures (Recall@k, MRR, MAP…), never by "accuracy" (gold at rank 1); report and compare follow `headline`. */
  retrieval?: boolean;
}

export type { CliFlag, CliGroupRef, CliRunContext, CliRunResult, CliSchema } from './cli-schema.js';

/** One system's published LLM sampling settings (agents/common/paper-settings.ts gathers them from the list). */
export interface PaperSampling {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** Where the values come from (recorded in config.json). */
  source: string;
}

/** What `lexcase run <id>` (the generic command built from `cli`) hands a system's `run`. */
export interface PluginRunOptions {
  runDir: string;
  /** The parsed flags of `cli.flags` (camelCase keys), and `limit` / `index` when the command has them. */
  flags: Readonly<Record<string, unknown>>;
  /** The chat model (when `cli.llm`), as core/llm makes it. */
  model?: unknown;
}

/** What a system's lazy `load()` gives: its report section and its run (`cliRun`, or the simpler `run`). */
export interface SystemModule {
  reportSection?: SectionBuilder;
  /** Runs the system into `o.runDir` (results.jsonl, config.json); the command then resolves the model, writes the report and prints a summary. */
  run?(o: PluginRunOptions): Promise<{ ran: number; skipped: number; failed: number }>;
  /** The whole of `lexcase run <id>` after parsing (wins over `run`): checks its flags, resolves the model through `ctx.resolveLlm`, runs, and gives what the command prints. */
  cliRun?(ctx: CliRunContext): Promise<CliRunResult>;
}

/**
 * An agent system as one value (agents/<system>/plugin.ts): light metadata — the list entry above,
 * its variants under one naming scheme (`<id>/<variant>`), the old config.json `system` values it
 * still answers to (`aliases`), its command as a flag schema, its paper's sampling settings — and a
 * lazy `load()` for the heavy part. agents/systems.ts lists them and hands the list to eval
 * (`useSystems`), which cannot import agents.
 */
export interface SystemPlugin extends SystemSpec {
  /** Variants, named `<id>/<variant>` (the one naming scheme). */
  variants: readonly string[];
  /** config.json `system` values older runs wrote for this system or its variants (still opened). */
  aliases: readonly string[];
  /** The command `lexcase run <id>` as a schema (src/cli/commands/run-plugins.ts builds it; absent: no `run <id>` command). */
  cli?: CliSchema;
  /** A variant whose items have another trace view than the system's (config.json `system` value → kind): MAD's single-path baselines. */
  variantTraceKinds?: Readonly<Record<string, TraceKind>>;
  /** Sampling settings from its paper, keyed by the name the CLI's `paper` option uses (usually the id). */
  paper: Readonly<Record<string, PaperSampling>>;
  load(): Promise<SystemModule>;
}

export const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The model a run used: config.model as a string, or the `model` field of a recorded LLM config object. */
export function modelOf(config: Record<string, unknown>): string | null {
  const m = config.model;
  if (typeof m === 'string') return m || null;
  if (m && typeof m === 'object') return str((m as Record<string, unknown>).model) ?? str((m as Record<string, unknown>).name);
  return null;
}

/** A figure from its interval (eval/stats): the numbers, the method's name and the printed text. */
export function figureOf(id: string, label: string, iv: Interval, o: { unit?: Unit; note?: string } = {}): HeadlineFigure {
  const unit = o.unit ?? 'percent';
  return {
    id,
    label,
    estimate: iv.estimate,
    lo: iv.lo,
    hi: iv.hi,
    n: iv.n,
    interval: iv.lo === null ? 'none' : iv.method,
    kind: iv.kind,
    unit,
    percent: unit === 'percent',
    method: methodLabel(iv),
    text: figureText(iv, unit),
    smallN: iv.n < SMALL_N,
    ...(o.note ? { note: o.note } : {}),
  };
}

/** A 0/1 figure: Wilson interval. */
export function proportion(id: string, label: string, successes: number, n: number, note?: string): HeadlineFigure {
  return figureOf(id, label, proportionInterval(successes, n), { note });
}

/** Any other figure: seeded percentile bootstrap of `stat` over resampled items (none below MIN_N). */
export function bootstrapped(
  id: string,
  label: string,
  n: number,
  stat: (idx: Int32Array) => number,
  ctx: Pick<FigureContext, 'seed' | 'iterations'>,
  opts: { unit?: Unit; note?: string; kind?: 'mean' | 'statistic' } = {},
): HeadlineFigure {
  return figureOf(id, label, statisticInterval(n, stat, { seed: ctx.seed, iterations: ctx.iterations, kind: opts.kind }), opts);
}

export const accuracy: HeadlineMetric = {
  id: 'accuracy',
  label: 'accuracy',
  compute: (records) =>
    records.length
      ? [
          proportion(
            'accuracy',
            'accuracy',
            correctFlags(records).reduce((a, b) => a + b, 0),
            records.length,
          ),
        ]
      : [],
};

/** Share of scored items whose boolean metric `key` is true (items without it are left out). */
export function rate(id: string, label: string, key: string, filter: (r: ResultRecord) => boolean = () => true): HeadlineMetric {
  return {
    id,
    label,
    compute: (records) => {
      const xs = records.filter((r) => filter(r) && typeof r.metrics?.[key] === 'boolean');
      return xs.length ? [proportion(id, label, xs.filter((r) => r.metrics![key] === true).length, xs.length)] : [];
    },
  };
}

export const macroF1 = (labels?: readonly string[]): HeadlineMetric => ({
  id: 'macro-f1',
  label: 'macro-F1',
  compute: (records, ctx) => {
    if (!records.length) return [];
    const preds = records.map(scoredPrediction);
    const golds = records.map((r) => r.gold);
    return [
      bootstrapped(
        'macro-f1',
        'macro-F1',
        records.length,
        (idx) =>
          classificationReport(
            [...idx].map((i) => preds[i]),
            [...idx].map((i) => golds[i]),
            labels,
          ).macroF1,
        ctx,
      ),
    ];
  },
});

/** The ks a retrieval run recorded (config.ks, else every recall@k key of its records). */
function recallKs(records: readonly ResultRecord[], config: Record<string, unknown>): number[] {
  const fromConfig = Array.isArray(config.ks) ? config.ks.filter((k): k is number => typeof k === 'number') : [];
  if (fromConfig.length) return [...fromConfig].sort((a, b) => a - b);
  const ks = new Set<number>();
  for (const r of records) for (const key of Object.keys(r.metrics ?? {})) if (/^recall@\d+$/.test(key)) ks.add(Number(key.slice(7)));
  return [...ks].sort((a, b) => a - b);
}

/** Recall@k for every k the run recorded (a decimal, as every retrieval measure). */
const recall: HeadlineMetric = {
  id: 'recall',
  label: 'Recall@k',
  compute: (records, ctx) => recallKs(records, ctx.config).flatMap((k) => recallAt(records, k, ctx) ?? []),
};

function recallAt(records: readonly ResultRecord[], k: number, ctx: FigureContext): HeadlineFigure | null {
  const xs = records.map((r) => num(r.metrics?.[`recall@${k}`])).filter((x): x is number => x !== null);
  if (!xs.length) return null;
  // one gold passage per query: a 0/1 hit (a proportion, Wilson); graded recall: a mean (bootstrap)
  return figureOf(`recall@${k}`, `Recall@${k}`, perItemInterval(xs, ctx), { unit: 'decimal' });
}

/** Reciprocal rank of the first gold passage per item (0 when none was found), for MRR. */
export function reciprocalRanks(records: readonly ResultRecord[]): number[] {
  return records.filter((r) => r.metrics && 'firstRank' in r.metrics).map((r) => (num(r.metrics!.firstRank) ? 1 / num(r.metrics!.firstRank)! : 0));
}

/** MRR: a mean of graded values (bootstrap), printed as a decimal. */
const mrr: HeadlineMetric = {
  id: 'mrr',
  label: 'MRR',
  compute: (records, ctx) => {
    const rr = reciprocalRanks(records);
    if (!rr.length) return [];
    const depth = recallKs(records, ctx.config).at(-1);
    return [
      bootstrapped('mrr', 'MRR', rr.length, (idx) => [...idx].reduce((s, i) => s + rr[i], 0) / (idx.length || 1), ctx, {
        kind: 'mean',
        unit: 'decimal',
        note: depth ? `reciprocal rank of the first gold passage within the top ${depth}` : undefined,
      }),
    ];
  },
};

/** "map" → "MAP", "ndcg@10" → "nDCG@10", "recall@100" → "Recall@100", "mrr@10" → "MRR@10", "p@30" → "P@30". */
export function measureLabel(name: string): string {
  const [m, k] = name.split('@');
  const base = ({ map: 'MAP', ndcg: 'nDCG', recall: 'Recall', mrr: 'MRR', p: 'P', recip_rank: 'MRR' } as Record<string, string>)[m.toLowerCase()] ?? m;
  return k === undefined ? base : `${base}@${k}`;
}

/** A TREC run: the mean of every measure it recorded (config.metrics: MAP, P@30, …), decimals. */
const trecMeasures: HeadlineMetric = {
  id: 'trec-measures',
  label: 'TREC measures',
  compute: (records, ctx) => {
    const names = Array.isArray(ctx.config.metrics) ? ctx.config.metrics.filter((m): m is string => typeof m === 'string') : [];
    return names.flatMap((name) => {
      const xs = records.map((r) => num(r.metrics?.[name])).filter((x): x is number => x !== null);
      return xs.length ? [figureOf(name, measureLabel(name), perItemInterval(xs, ctx), { unit: 'decimal' })] : [];
    });
  },
};

/** 3-ply: pooled Σ over triples (the paper's micro average), bootstrapped over triples. */
export function pooled(
  id: string,
  label: string,
  num_: (m: Record<string, unknown>) => number,
  den: (m: Record<string, unknown>) => number,
  transform: (ratio: number) => number,
): HeadlineMetric {
  return {
    id,
    label,
    compute: (records, ctx) => {
      const ms = records.filter((r) => r.metrics && typeof r.metrics.nGt === 'number').map((r) => r.metrics as Record<string, unknown>);
      if (!ms.length) return [];
      const stat = (idx: Int32Array) => {
        let a = 0;
        let b = 0;
        for (const i of idx) {
          a += num_(ms[i]);
          b += den(ms[i]);
        }
        return b ? transform(a / b) : 0;
      };
      return [bootstrapped(id, label, ms.length, stat, ctx, { note: 'pooled over triples (micro average)' })];
    },
  };
}

export const n0 = (v: unknown) => (typeof v === 'number' ? v : 0);

export const threeplyAbstention: HeadlineMetric = {
  id: 'abstention',
  label: 'successful abstention',
  compute: (records) => {
    const designed = records.filter((r) => r.gold === 'abstain');
    if (!designed.length) return [];
    const ok = designed.filter((r) => !isFailed(r) && r.prediction === 'abstain').length;
    return [
      proportion(
        'abstention',
        'successful abstention',
        ok,
        designed.length,
        `over the ${designed.length} triple${designed.length === 1 ? '' : 's'} designed for abstention`,
      ),
    ];
  },
};

export const defaultMethod = (c: Record<string, unknown>) => str(c.method) ?? str(c.mode) ?? str(c.variant) ?? null;
export const defaultK = (c: Record<string, unknown>) => (num(c.k) !== null ? String(c.k) : null);

export const cli = (takesIndex: boolean, takesData = false, limit: RunSpec['limit'] = 'limit'): RunSpec => ({
  via: 'cli',
  runDirFlag: '--run-dir',
  takesIndex,
  takesData,
  limit,
});
const inProcess: RunSpec = { via: 'in-process', runDirFlag: '--run-dir', takesIndex: true, takesData: false, limit: 'limit' };

/**
 * Every system, in the order the runs list groups them: eval's own (retrieval, TREC), then the
 * agent systems agents/systems.ts hands over (`useSystems`), then a reproduction's own record.
 * One array, filled in place, so every reader sees the whole list once agents/systems.ts is loaded
 * (the CLI, the library entries and the explorer's server load it).
 */
export const SYSTEMS: SystemSpec[] = [
  {
    id: 'retrieval',
    name: 'retrieval',
    matches: (s) => s === 'retrieval',
    run: inProcess,
    traceKind: 'retrieval',
    reportSection: null,
    method: (c) => str(c.method),
    k: (c) => (Array.isArray(c.ks) ? c.ks.join(', ') : defaultK(c)),
    headline: [recall, mrr],
    retrieval: true,
  },
  {
    id: 'trec',
    name: 'TREC run',
    matches: (s) => s === 'trec',
    run: { ...inProcess, takesData: true },
    traceKind: 'other',
    reportSection: null,
    method: defaultMethod,
    k: defaultK,
    headline: [trecMeasures],
    retrieval: true,
  },
  {
    id: 'reproduce',
    name: 'reproduction',
    matches: (s) => s === 'reproduce',
    traceKind: 'other',
    reportSection: null,
    method: () => null,
    k: () => null,
    headline: [],
  },
];

/** The agent systems handed over by agents/systems.ts (empty until it is loaded). */
export const AGENT_PLUGINS: SystemPlugin[] = [];

/**
 * Hands eval the agent systems' list (agents/systems.ts calls it once with its one list): they join
 * SYSTEMS before the reproduction entry. Again with the same list: nothing changes; a plugin with
 * an id already listed replaces it.
 */
export function useSystems(plugins: readonly SystemPlugin[]): void {
  for (const p of plugins) {
    const at = SYSTEMS.findIndex((s) => s.id === p.id);
    if (at >= 0) SYSTEMS[at] = p;
    else
      SYSTEMS.splice(
        SYSTEMS.findIndex((s) => s.id === 'reproduce'),
        0,
        p,
      );
    const ap = AGENT_PLUGINS.findIndex((s) => s.id === p.id);
    if (ap >= 0) AGENT_PLUGINS[ap] = p;
    else AGENT_PLUGINS.push(p);
  }
}

/** `matches` for a plugin: its id, its variants (`<id>/<variant>`) and its aliases. */
export function matchesNames(id: string, variants: readonly string[], aliases: readonly string[]): (configSystem: string) => boolean {
  const names = new Set([id, ...variants, ...aliases]);
  return (s) => names.has(s);
}

/** The systems a recipe run may name (`run.system`), in registry order (read when asked: the list grows once agents/systems.ts is loaded). */
export function runSystemIds(): string[] {
  return SYSTEMS.filter((s) => s.run).map((s) => s.id);
}

/** The explorer's trace view for a run's recorded config.json `system`: its variant's, else its system's ('other' for a system not in the list). */
export function traceKindOf(configSystem: string | null | undefined): TraceKind {
  const spec = systemSpec(configSystem) as SystemSpec & Partial<SystemPlugin>;
  return (configSystem ? spec.variantTraceKinds?.[configSystem] : undefined) ?? spec.traceKind;
}

/** The report section of a run's system: its plugin's lazily loaded one (null for none). */
export async function systemReportSection(configSystem: string | null | undefined): Promise<SectionBuilder | null> {
  const spec = systemSpec(configSystem) as Partial<SystemPlugin>;
  if (typeof spec.load !== 'function') return null;
  return (await spec.load()).reportSection ?? null;
}

/** The registry entry of a runnable system by id (undefined for an unknown one). */
export function runnableSystem(id: string): (SystemSpec & { run: RunSpec }) | undefined {
  return SYSTEMS.find((s): s is SystemSpec & { run: RunSpec } => s.id === id && s.run !== undefined);
}

/** Any system not in the registry: its accuracy. */
export const GENERIC_SYSTEM: SystemSpec = {
  id: 'other',
  name: 'run',
  matches: () => true,
  traceKind: 'other',
  reportSection: null,
  method: defaultMethod,
  k: defaultK,
  headline: [accuracy],
};

/** The registry entry for a config.json `system` value (GENERIC_SYSTEM when none matches). */
export function systemSpec(configSystem: string | null | undefined): SystemSpec {
  return (configSystem ? SYSTEMS.find((s) => s.matches(configSystem)) : undefined) ?? GENERIC_SYSTEM;
}

/** A run's headline figures, as its system declares them (pass the latest record per item). */
export function headlineFigures(configSystem: string | null | undefined, records: readonly ResultRecord[], ctx: FigureContext): HeadlineFigure[] {
  return systemSpec(configSystem).headline.flatMap((m) => m.compute(records, ctx));
}
