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
 * trace view `recordedTraceKind` with each trace), the CLI (`lexcase run <id>` from a plugin's schema) and
 * the library (`systemSpec`, `headlineFigures`). A new agent system is its folder plus its entry in
 * agents/systems.ts (docs/architecture.md, "How to add an agent system").
 * The headline metrics the entries name are built in eval/headline-metrics.ts.
 */
import { accuracy, mrr, recall, trecMeasures, num, type FigureContext, type HeadlineFigure, type HeadlineMetric } from './headline-metrics.js';
import type { ResultRecord } from './types.js';
import type { SectionBuilder } from './report/types.js';
import type { CliRunContext, CliRunResult, CliSchema } from './cli-schema.js';
import { METRIC_KINDS, type MetricKind, type MetricKinds } from './stats/metric-kinds.js';

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
  /** Which trace view the explorer gives its items (the server sends it with each trace: recordedTraceKind). */
  traceKind: TraceKind;
  /** The id of the report section registered for its runs (`registerReportSection`), if any. */
  reportSection: string | null;
  /** The retrieval method, mode or variant a run used, for the runs list. */
  method(config: Record<string, unknown>): string | null;
  /** The k (passages per search) a run used, for the runs list (a list of ks for retrieval runs). */
  k(config: Record<string, unknown>): string | null;
  headline: readonly HeadlineMetric[];
  /**
   * The task's label set a run's macro figures average over (eval/metrics/macro.ts), from its
   * config: EMAR's recorded `labels` (its items' options; hearsay Yes/No, Bar Exam A–D), ACAL's Yes/No. Absent or undefined: the
   * labels seen in the run's gold answers and predictions.
   */
  labels?(config: Record<string, unknown>): readonly string[] | undefined;
  /**
   * Its item ids do not name the items' content (3-ply's `<mode>-NNN`: a place in a seeded draw): its
   * results record each item's content checksum (`itemChecksum`), and a comparison warns for a run
   * without it (an older lexcase), whose items it can pair by id and gold label only.
   */
  itemChecksum?: boolean;
  /** A retrieval run: judged by retrieval measures (Recall@k, MRR, MAP…), never by "accuracy" (gold at rank 1); report and compare follow `headline`. */
  retrieval?: boolean;
  /**
   * What its per-item metrics measure (eval/stats/metric-kinds.ts): `count` (forfeits, citations —
   * a mean count, bootstrap, even when every item recorded 0 or 1), `share`, `proportion`, `graded`.
   * Its runs record them in config.json (`metricKinds`); a metric not named: its values decide.
   */
  metricKinds?: MetricKinds;
}

export type { CliFlag, CliGroupRef, CliRunContext, CliRunResult, CliSchema } from './cli-schema.js';

/** One system's published LLM sampling settings (agents/common/paper-settings.ts gathers them from the list). */
export interface PaperSampling {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** The keys above whose value is lexcase's own default because the paper gives none (run logs and config.json say so; not in `fromPaper`). */
  lexcaseDefault?: readonly ('temperature' | 'topP' | 'maxTokens')[];
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
  /**
   * Pass it to `runExperiment` as its `whileLocked`: the command writes the report there, before the
   * run dir's lock is released, so a resume waiting for the lock sees this run's report (as for the
   * systems with a `cliRun`). A run that does not pass it gets its report written after it returns.
   */
  whileLocked: (result: unknown) => Promise<void>;
}

/** What a system's lazy `load()` gives: its report section and its run (`cliRun`, or the simpler `run`). */
export interface SystemModule {
  reportSection?: SectionBuilder;
  /** Runs the system into `o.runDir` (results.jsonl, config.json); the command then resolves the model, writes the report and prints a summary. */
  run?(o: PluginRunOptions): Promise<{ ran: number; skipped: number; failed: number; keptFailed?: number }>;
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

export { num };
export const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** The model a run used: config.model as a string, or the `model` field of a recorded LLM config object. */
export function modelOf(config: Record<string, unknown>): string | null {
  const m = config.model;
  if (typeof m === 'string') return m || null;
  if (m && typeof m === 'object') return str((m as Record<string, unknown>).model) ?? str((m as Record<string, unknown>).name);
  return null;
}

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

/**
 * A run's config.json `system` under the one naming scheme: a system with variants writes
 * `<id>/<variant>` (`acal/cot`, `baseline/bm25-rag`, `mad/mad`), a system without its id (`case`).
 * An older name (a plugin's alias, or its bare id) is given as the variant it meant — `acal-cot` →
 * `acal/cot`, `acal` → `acal/acal`, `baseline` with `mode: "llm-only"` → `baseline/llm-only` — so a
 * resumed or replayed old run dir compares equal to the same run started now. A name of no plugin
 * comes back as it is; null when the config names no system.
 */
export function canonicalSystem(config: Record<string, unknown>): string | null {
  const name = str(config.system);
  if (!name) return null;
  const p = AGENT_PLUGINS.find((x) => x.matches(name));
  if (!p || !p.variants.length || p.variants.includes(name)) return name;
  const variant = (v: string | null) => (v && p.variants.includes(`${p.id}/${v}`) ? `${p.id}/${v}` : null);
  if (name === p.id) return variant(str(config.mode)) ?? variant(str(config.variant)) ?? variant(p.id) ?? name;
  return variant(name.startsWith(`${p.id}-`) ? name.slice(p.id.length + 1) : null) ?? name;
}

/** `config` with its `system` under the one naming scheme (canonicalSystem), for comparing a recorded run's config with a new one. */
export function withCanonicalSystem(config: Record<string, unknown>): Record<string, unknown> {
  const name = canonicalSystem(config);
  return name === null ? config : { ...config, system: name };
}

/** The systems a recipe run may name (`run.system`), in registry order (read when asked: the list grows once agents/systems.ts is loaded). */
export function runSystemIds(): string[] {
  return SYSTEMS.filter((s) => s.run).map((s) => s.id);
}

/**
 * The report section of a run's system: its plugin's lazily loaded one, else that of the plugin its
 * `reportSection` names (CASE's baselines get CASE's section from CASE's plugin); null for none.
 * Given a spec (`recordedSystemSpec` of a run's config.json), that entry's; given a name, the entry
 * the name matches.
 */
export async function systemReportSection(system: string | null | undefined | SystemSpec): Promise<SectionBuilder | null> {
  const spec = (typeof system === 'object' && system !== null ? system : systemSpec(system)) as SystemSpec & Partial<SystemPlugin>;
  const own = typeof spec.load === 'function' ? (await spec.load()).reportSection : undefined;
  if (own) return own;
  const owner = AGENT_PLUGINS.find((p) => p.id === spec.reportSection && p !== spec);
  return (owner && (await owner.load()).reportSection) ?? null;
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

/**
 * The list entry whose run a config.json records, for what only that system's runs may get (its
 * report section): decided by what the run records of its writer, not by the name the run chose.
 * `provenance.lexcaseSystem` (written by every run since 2026-12-01): the id of the lexcase system
 * that ran it (that entry), or null — a system of the caller's own, whatever its `config.system`
 * says (a system of yours named "baseline" or "case" is not CASE's: GENERIC_SYSTEM). A run dir
 * written before it records nothing there: the entry its `system` names, when the name is one that
 * system's runs record — for a system with variants, a name whose canonical form (canonicalSystem:
 * an older `baseline` + a baseline's `mode`) is one of them — else GENERIC_SYSTEM.
 */
export function recordedSystemSpec(file: { config?: Record<string, unknown>; provenance?: object }): SystemSpec {
  const prov = (file.provenance ?? {}) as { lexcaseSystem?: unknown };
  if ('lexcaseSystem' in prov)
    return typeof prov.lexcaseSystem === 'string' ? (SYSTEMS.find((s) => s.id === prov.lexcaseSystem) ?? GENERIC_SYSTEM) : GENERIC_SYSTEM;
  const config = file.config ?? {};
  const spec = systemSpec(str(config.system)) as SystemSpec & Partial<SystemPlugin>;
  if (!spec.variants?.length) return spec;
  const name = canonicalSystem(config);
  return name !== null && spec.variants.includes(name) ? spec : GENERIC_SYSTEM;
}

/**
 * The explorer's trace view for a run dir's config.json, by the system that wrote it
 * (`recordedSystemSpec`): its variant's, else its system's; 'other' for a system of the user's own,
 * whatever its `system` name (one named "case" or "mad" is not lexcase's).
 */
export function recordedTraceKind(file: { config?: Record<string, unknown>; provenance?: object }): TraceKind {
  const spec = recordedSystemSpec(file) as SystemSpec & Partial<SystemPlugin>;
  const name = str(file.config?.system);
  return (name ? spec.variantTraceKinds?.[name] : undefined) ?? spec.traceKind;
}

/**
 * The lexcase system that wrote a run dir (`recordedSystemSpec`: its id), or null for a system of the
 * user's own — what `traceSchemaFor` takes as the writer.
 */
export function recordedWriter(file: { config?: Record<string, unknown>; provenance?: object }): string | null {
  const spec = recordedSystemSpec(file);
  return spec === GENERIC_SYSTEM ? null : spec.id;
}

/**
 * A run's per-item metric kinds (eval/stats/metric-kinds.ts): as its config.json records them
 * (`metricKinds`: the declaration of the system that wrote it, lexcase's or the user's own, since
 * 2026-12-01), and for a metric the record does not name, its writer's declaration
 * (`recordedSystemSpec`; none for a system of the user's own) — all of it for a run dir from before
 * the record. So a metric a lexcase system declared after the run was written reads as a run written
 * now does: MAD's `correctAfterRound<r>` (declared `outcome` on 2026-12-02) in a run dir of 2026-12-01
 * stays over every item, as it was read before the declaration. A kind not in METRIC_KINDS is left out.
 */
export function recordedMetricKinds(file: { config?: Record<string, unknown>; provenance?: object; metricKinds?: unknown }): MetricKinds {
  const writer = recordedSystemSpec(file).metricKinds ?? {};
  const rec = file.metricKinds;
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return writer;
  return {
    ...writer,
    ...Object.fromEntries(Object.entries(rec).filter((e): e is [string, MetricKind] => (METRIC_KINDS as readonly unknown[]).includes(e[1]))),
  };
}

const specOf = (system: string | null | undefined | SystemSpec): SystemSpec => (typeof system === 'object' && system !== null ? system : systemSpec(system));

/** The task's label set of a run (its system's `labels` over its config), undefined where the system does not know it. Given a spec (`recordedSystemSpec`), that entry's. */
export function taskLabels(system: string | null | undefined | SystemSpec, config: Record<string, unknown>): readonly string[] | undefined {
  return specOf(system).labels?.(config);
}

/**
 * A run's headline figures, as its system declares them (pass the latest record per item); macro figures over the task's label set (`taskLabels`).
 * Given a spec (`recordedSystemSpec` of a run's config.json), that entry's; given a name, the entry the name matches.
 */
export function headlineFigures(system: string | null | undefined | SystemSpec, records: readonly ResultRecord[], ctx: FigureContext): HeadlineFigure[] {
  const spec = specOf(system);
  const c = { ...ctx, labels: ctx.labels ?? taskLabels(spec, ctx.config) };
  return spec.headline.flatMap((m) => m.compute(records, c));
}
