/**
 * table.json / table.md of a reproduction: per recipe cell, the paper's printed value, lexcase's
 * value with its 95% interval and n (in the paper's scale) — the interval method its measure kind
 * gets from the statistics module (eval/stats/: Wilson for proportions, percentile bootstrap for
 * the rest, none below n = 10), named in the cell (`method`) and the caption — and `outsideCi`:
 * true when the paper's value lies outside lexcase's interval, null (with `flagNote`) when the row
 * is not comparable, the paper prints no number, n < 10 or the interval is degenerate. Only a run
 * whose status is "done" has values: a failed, unavailable or not-run cell's value is null.
 * `failed` counts the cell's failed items (eval/metrics/failures.ts: an error, or no prediction from a
 * system that answers; a retrieval or trec item fails only with an error) and `failedNote` says how
 * the value treats them (accuracy and the F1 figures count them as wrong): a cell whose failures sit
 * beside a ⚠ says (`flagNote`) that the flag may come from them, as its text does in table.md.
 *
 * table.json (read by the explorer):
 *   { recipe, title, paper, table, scale, columns, methods,
 *     rows: [{ label, comparable, cells: [{ column, paper, value, ci: [lo, hi] | null, n, failed, failedNote?, noHits?, pastDepth?, method, ciNote?, outsideCi, flagNote?, run, status }] }],
 *     notes, limit, shard, runs: [{ id, system, status, error?, argv? }] }
 */
import { recordedBootstrap, type RecordedBootstrap } from '../report/recorded-bootstrap.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { errors } from '../../core/errors.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { readConfig, readResults, writeAtomic } from '../run-dir.js';
import { recordedMetricKinds, recordedSystemSpec, taskLabels } from '../systems.js';
import { denominatorText, type MetricKinds } from '../stats/index.js';
import { isFailed } from '../metrics/failures.js';
import { METHOD_LABEL, METHODS_NOTE, MIN_N, outsideInterval, type IntervalMethod } from '../stats/index.js';
import type { ResultRecord } from '../types.js';
import { cutoffsBeyondDepth } from '../../retrieval/ranking-depth.js';
import { goldCoverage } from '../gold-in-index.js';
import { OFFLINE_SYSTEMS, type Metric, type Recipe } from './recipe.js';
import { fixedHalfEven } from '../../core/fixed.js';
import { runDirOf, type ReproductionFile, type RunState } from './reproduction-dir.js';
import { cellKinds, cellValue, isMacroStat, selectRecords } from './stats.js';
import { labelsWithoutGold, limitPrefixClause, macroCeilingNote, macroLabels } from '../metrics/macro.js';
import { mixedOutcomeColumns } from './mixed-outcomes.js';
import { samplingNotes } from './sampling-notes.js';
import { cacheAnswersText, cacheSourcesOf } from '../cache-sources.js';
import { noHitsLeftOutLine } from '../trec/format.js';
import { parseMeasure } from '../trec/measures.js';
import { runCut, runCutText, type RunCut } from '../trec/run-depth.js';
import { codeSpan, mdCell } from '../report/format.js';

export interface TableCell {
  column: string;
  paper: number | null;
  value: number | null;
  ci: [number, number] | null;
  n: number;
  /** Failed items of the cell (its run's items the cell's `where` keeps): 0 where none failed. */
  failed: number;
  /** How the value treats the failed items ("counted as wrong", "left out of n"); only where failed > 0. */
  failedNote?: string;
  /**
   * A trec run's topics of the cell that got no hit (trec-run.ts: `retrieved` 0, measures null): trec_eval
   * skips them, so they are not in `n` (n + count = the topics searched); only where there are any.
   */
  noHits?: { count: number; examples: string[] };
  /**
   * A trec cell whose cutoff is deeper than its run searched (the recipe's `hits`) while some topics
   * hold that many: trec_eval's figure counts only those `depth` documents (recall@1000 of a run cut
   * at 100 is its recall@100); `topics` of the run's searched topics were cut there. The notes say it
   * in full (eval/trec/run-depth.ts).
   */
  pastDepth?: { depth: number; topics: number };
  /**
   * A mean cell's denominator where its run's system declares the metric an outcome of every item:
   * "over every item (n = 12), the 2 that did not record it counted as 0 (metric kind outcome)"
   * (eval/stats denominatorText); in a column whose other runs declare it so and this one's not, "over the
   * 10 items that recorded it (2 of 12 did not and are left out)" (mixed-outcomes.ts); absent for any other
   * cell (its n is the items that recorded the metric).
   */
  over?: string;
  /** The interval's method (eval/stats): "95% Wilson" or "95% bootstrap"; null without a value. */
  method: string | null;
  /** Why `ci` is null although there is a value ("n < 10"). */
  ciNote?: string;
  outsideCi: boolean | null;
  /** Why `outsideCi` is null on a comparable cell with a paper value ("n < 10", "degenerate interval"). */
  flagNote?: string;
  run: string;
  /** done | failed | unavailable | not run */
  status: string;
}

export interface TableJson {
  recipe: string;
  title: string;
  paper: string;
  table: string;
  scale: 1 | 100;
  columns: string[];
  /** The interval methods of the statistics module, in words (the caption prints it). */
  methods: string;
  rows: { label: string; comparable: boolean; note?: string; cells: TableCell[] }[];
  notes: string[];
  limit: number | null;
  shard: { index: number; count: number } | null;
  runs: RunState[];
}

/** Stats whose n holds every item of the cell, a failed one scored as no prediction (wrong). */
const COUNTS_AS_WRONG = new Set<Metric['stat']>(['accuracy', 'micro-f1', 'macro-precision', 'macro-recall', 'macro-f1']);

/**
 * The cell's failed items and how its value treats them. A retrieval or trec item's prediction is the
 * top-ranked id (null when nothing was retrieved: a miss, not a failure), so there only an error fails.
 */
function cellFailures(recs: readonly ResultRecord[], m: Metric, offline: boolean, kinds: MetricKinds): { failed: number; failedNote?: string } {
  const failedOf = (r: ResultRecord) => (offline ? r.error !== undefined : isFailed(r));
  const failed = selectRecords(recs, { ...m, stat: 'accuracy' }).filter(failedOf).length; // the items `where` keeps
  if (!failed) return { failed };
  // accuracy scores a failed item wrong; the F1, precision and recall stats count it as no prediction (a missed
  // gold label), which is why micro-F1 can read above accuracy over the same items
  if (COUNTS_AS_WRONG.has(m.stat)) return { failed, failedNote: m.stat === 'accuracy' ? 'counted as wrong' : 'counted as no prediction' };
  const inN = selectRecords(recs, m, kinds).filter(failedOf).length;
  return { failed, failedNote: inN === 0 ? 'left out of n' : inN === failed ? 'in n with what they recorded' : `${inN} of them in n with what they recorded` };
}

/** A trec run's topics with no hit (trec-run.ts records `retrieved` 0 and null measures for them). */
const noHitIds = (recs: readonly ResultRecord[]): string[] => recs.filter((r) => r.metrics?.retrieved === 0).map((r) => r.id);
const topicSet = (ids: readonly string[]) => ({ count: ids.length, examples: ids.slice(0, 10) });

/** The cell's topics that got no hit and so are not in its n (a mean over a measure they have none of). */
function cellNoHits(recs: readonly ResultRecord[], m: Metric, kinds: MetricKinds): { noHits?: { count: number; examples: string[] } } {
  const inN = new Set(selectRecords(recs, m, kinds).map((r) => r.id));
  const out = noHitIds(selectRecords(recs, { ...m, stat: 'accuracy' })).filter((id) => !inN.has(id)); // the items `where` keeps
  return out.length ? { noHits: topicSet(out) } : {};
}

/**
 * A finished trec run cut shallower than some of its measures' cutoffs: config.json's `hits` (the depth
 * searched) and `metrics`, the topics' `retrieved` counts (trec-run.ts); undefined otherwise.
 */
function trecRunCut(recs: readonly ResultRecord[], cfg: Record<string, unknown>): RunCut | undefined {
  if (cfg.system !== 'trec' || typeof cfg.hits !== 'number' || !Array.isArray(cfg.metrics)) return undefined;
  const lengths = recs.map((r) => r.metrics?.retrieved).filter((n): n is number => typeof n === 'number');
  return runCut(lengths, (cfg.metrics as string[]).map(parseMeasure), cfg.hits);
}

/** The cell's TableCell `pastDepth`: its measure's cutoff deeper than its run's cut. */
function cellPastDepth(cut: RunCut | undefined, m: Metric): { pastDepth?: { depth: number; topics: number } } {
  return cut && m.key !== undefined && cut.over.some((o) => o.name === m.key) ? { pastDepth: { depth: cut.depth, topics: cut.cut } } : {};
}

/**
 * A mean cell's denominator (TableCell `over`) where its metric is declared an outcome of every item:
 * every item the cell keeps, one without the metric 0; in a column whose runs read the metric both ways
 * (`mixed`: mixed-outcomes.ts), every cell's, the items that recorded it where not declared so.
 */
function cellOver(recs: readonly ResultRecord[], m: Metric, kinds: MetricKinds, mixed = false): { over?: string } {
  if (m.stat !== 'mean' || m.key === undefined || (kinds[m.key] !== 'outcome' && !mixed)) return {};
  return { over: `over ${denominatorText(m.key, selectRecords(recs, { ...m, stat: 'accuracy' }), kinds)}` }; // the items `where` keeps
}

const round = (x: number, scale: number) => Number((x * scale).toFixed(scale === 100 ? 2 : 4));

export async function buildTable(dir: string, recipe: Recipe, repro: Pick<ReproductionFile, 'limit' | 'shard' | 'runs'>): Promise<TableJson> {
  const results = new Map<string, ResultRecord[]>();
  const labels = new Map<string, readonly string[] | undefined>();
  const kinds = new Map<string, MetricKinds>();
  // the bootstrap its own report.md used (`run acal --iterations N`: config.bootstrap), so the cell's interval is the report's
  const bootstraps = new Map<string, RecordedBootstrap>();
  // a trec run cut shallower than a measure's cutoff (run-depth.ts): said beside the cell and in the notes
  const cuts = new Map<string, RunCut>();
  // the --limit each run took (its config.json `limit`): said beside a macro ceiling, as its report.md says it
  const limits = new Map<string, unknown>();
  for (const run of recipe.runs) {
    const d = runDirOf(dir, run.id);
    if (!existsSync(join(d, 'results.jsonl'))) continue;
    results.set(run.id, [...new Map((await readResults(d)).records.map((r) => [r.id, r])).values()]); // the last line of an id wins, as in every reader
    // the task's label set from the run's config.json: its macro figures as its headline has them
    // by the system that wrote the run dir (recordedSystemSpec), the recipe's where it has no config.json
    const file = (await readConfig(d)) as { config?: Record<string, unknown>; provenance?: object } | undefined;
    const cfg = file?.config ?? {};
    labels.set(run.id, taskLabels(typeof cfg.system === 'string' ? recordedSystemSpec(file!) : run.system, cfg));
    // what its per-item metrics measure (a count's mean gets a bootstrap interval even at 0 or 1 on every item)
    kinds.set(run.id, file ? recordedMetricKinds(file) : {});
    bootstraps.set(run.id, recordedBootstrap(cfg, `${d}/config.json`));
    limits.set(run.id, cfg.limit);
    const cut = trecRunCut(results.get(run.id)!, cfg);
    if (cut) cuts.set(run.id, cut);
  }
  const state = new Map(repro.runs.map((s) => [s.id, s]));
  // the runs a table has figures of (finished in this reproduction), with the kinds their values allow
  const readableOf = new Map(
    [...results].filter(([id, recs]) => state.get(id)?.status === 'done' && recs.length).map(([id, recs]) => [id, cellKinds(recs, kinds.get(id))]),
  );
  const mixed = mixedOutcomeColumns(recipe, readableOf);
  const offline = new Set(recipe.runs.filter((r) => OFFLINE_SYSTEMS.includes(r.system)).map((r) => r.id));
  const rows = recipe.rows.map((row, i) => ({
    label: row.label,
    comparable: row.comparable,
    ...(row.note ? { note: row.note } : {}),
    cells: row.cells.map((c, j): TableCell => {
      const status = state.get(c.run)?.status ?? 'not run';
      const none = { column: c.column, paper: c.paper, value: null, ci: null, n: 0, failed: 0, method: null, outsideCi: null, run: c.run, status };
      // Only a run that finished in this reproduction has figures: the results a failed run (a resume
      // refused for a changed config, an error midway) left from an earlier attempt are not the
      // recipe's, and printed as current they read as a reproduced number ("— (failed)" instead).
      const recs = status === 'done' ? results.get(c.run) : undefined;
      if (recs) checkMetricKeys(recipe, `rows[${i}].cells[${j}].metric`, c.run, c.metric, recs);
      if (!recs?.length) return none;
      const iv = cellValue(recs, c.metric, { labels: labels.get(c.run), kinds: kinds.get(c.run), ...bootstraps.get(c.run) });
      const readable = cellKinds(recs, kinds.get(c.run));
      // every item of the cell failed (left out of n): said as failed, never as "no items" with failed 0
      if (iv.n === 0) return { ...none, ...cellFailures(recs, c.metric, offline.has(c.run), readable) };
      const ci: [number, number] | null = iv.lo !== null && iv.hi !== null ? [round(iv.lo, recipe.scale), round(iv.hi, recipe.scale)] : null;
      const flag = row.comparable && c.paper !== null ? outsideInterval(c.paper, { lo: ci?.[0] ?? null, hi: ci?.[1] ?? null, n: iv.n }) : { outside: null };
      const fails = cellFailures(recs, c.metric, offline.has(c.run), readable);
      // a ⚠ beside failed items may be theirs (counted as wrong, or a smaller, selected n): the cell says so
      const reason =
        flag.outside && fails.failed ? `may come from the ${fails.failed} failed item${fails.failed === 1 ? '' : 's'} (${fails.failedNote})` : flag.reason;
      return {
        column: c.column,
        paper: c.paper,
        value: round(iv.estimate, recipe.scale),
        ci,
        n: iv.n,
        ...fails,
        ...cellNoHits(recs, c.metric, readable),
        ...cellPastDepth(cuts.get(c.run), c.metric),
        ...cellOver(recs, c.metric, readable, c.metric.key !== undefined && mixed.has(c.column, c.metric.key)),
        method: METHOD_LABEL[iv.method as IntervalMethod],
        ...(ci ? {} : { ciNote: iv.missing }),
        outsideCi: flag.outside,
        ...(reason ? { flagNote: reason } : {}),
        run: c.run,
        status,
      };
    }),
  }));
  const notes = [
    ...recipe.differences.map((d) => `Difference from the paper: ${d}`),
    ...recipe.notes,
    ...recipe.rows.filter((r) => r.note).map((r) => `${r.label}: ${r.note}`),
    // a column whose runs read one metric two ways (an outcome of every item in one, not in another)
    ...mixed.notes,
    ...(await indexNotes(dir, recipe, results, repro.runs)),
    // the model and sampling each LLM run sent, and which values are the paper's
    ...(await samplingNotes(dir, recipe, repro.runs)),
    // a run whose replies came from the response cache: its figures are the replies an earlier run got (the run says it on
    // stderr, which reproduce keeps in logs/<run>.log; before 2026-12-05 the table said nothing of it)
    ...recipe.runs.flatMap((run) => {
      const said = state.get(run.id)?.status === 'done' ? cacheAnswersOf(results.get(run.id) ?? []) : '';
      return said ? [`Run ${run.id}: ${said}.`] : [];
    }),
    // a run whose macro cells average over a label with no gold item among its items: their ceiling is below the paper's scale
    ...macroCeilingNotes(recipe, results, state, labels, limits),
    // the topics a trec run got no hit for, which its cells' n leaves out (as `eval retrieval` names its no-hit topics)
    ...recipe.runs.flatMap((run) => {
      const ids = state.get(run.id)?.status === 'done' ? noHitIds(results.get(run.id) ?? []) : [];
      return ids.length ? [noHitsLeftOutLine(run.id, topicSet(ids))] : [];
    }),
    // a trec run cut shallower than a cutoff: its figure counts only what the run ranks (as `eval run` says of a run file)
    ...recipe.runs.flatMap((run) => {
      const cut = state.get(run.id)?.status === 'done' ? cuts.get(run.id) : undefined;
      return cut ? [`${runCutText(cut, `run ${run.id}`, (k) => `the recipe's "hits": ${k}`)}.`] : [];
    }),
  ];
  return {
    recipe: recipe.id,
    title: recipe.title,
    paper: recipe.paper,
    table: recipe.table,
    scale: recipe.scale,
    columns: recipe.columns,
    methods: METHODS_NOTE,
    rows,
    notes,
    limit: repro.limit,
    shard: repro.shard,
    runs: repro.runs,
  };
}

type IndexRecord = { corpus?: string; passages?: number };

/** "index of corpus "default" (6,142 passages)": an index as a run's config.json records it. */
const indexText = (index: IndexRecord) => `index of corpus "${index.corpus}" (${index.passages?.toLocaleString('en-US')} passages)`;

/**
 * Per retrieval run that finished: the index it searched (corpus, passages — from its config.json, not the
 * recipe's text) and how many of its questions have no gold passage there (items with
 * `goldInIndex: false`, retrieval-run.ts): they can only count as misses. Per index the finished
 * agent runs (CASE, its baselines, …) searched (config.json `indexContent`; the llm-only baseline
 * records none, a run dir of it from before 2026-12-01 the one it was given and did not read): that index and the runs, so a recipe's text
 * never has to state a passage count.
 */
async function indexNotes(dir: string, recipe: Recipe, results: ReadonlyMap<string, ResultRecord[]>, runs: readonly RunState[]): Promise<string[]> {
  const notes: string[] = [];
  const agentRuns = new Map<string, string[]>();
  const done = new Set(runs.filter((s) => s.status === 'done').map((s) => s.id));
  for (const run of recipe.runs) {
    const recs = results.get(run.id);
    if (!recs?.length || !done.has(run.id)) continue;
    const config = (await readConfig(runDirOf(dir, run.id)))?.config as
      | { index?: IndexRecord; indexContent?: IndexRecord; method?: string; ks?: number[]; retriever?: { depth?: number } }
      | undefined;
    if (run.system !== 'retrieval') {
      if (config?.indexContent?.passages === undefined) continue;
      const where = indexText(config.indexContent);
      agentRuns.set(where, [...(agentRuns.get(where) ?? []), run.id]);
      continue;
    }
    const index = config?.index;
    const c = goldCoverage(recs);
    const where = index ? indexText(index) : 'its index';
    const gold = !c
      ? ''
      : c.missing
        ? `; ${c.missing} of ${c.items} questions${c.items < recs.length ? ' that record it' : ''} have no gold passage in it (e.g. ${c.examples.slice(0, 3).join(', ')}) and count as misses`
        : `; every question's gold passage is in it`;
    // Recall@k past a hybrid's depth (retrieval-run.ts warns it at the run's start)
    const beyond = config?.ks && config.retriever ? cutoffsBeyondDepth(config.method ?? run.id, config.retriever.depth, config.ks) : undefined;
    notes.push(`Run ${run.id} searched the ${where}${gold}.${beyond ? ` Its Recall${beyond}.` : ''}`);
  }
  for (const [where, ids] of agentRuns)
    notes.push(`${ids.length === 1 ? 'Run' : 'Runs'} ${ids.join(', ')} ${ids.length === 1 ? 'was' : 'were'} given the ${where}.`);
  return notes;
}

/**
 * A metric key no result of the run has is a recipe error (a typo), not a cell of zeros: stat
 * "ratio" over a misspelled key printed `0.0000 [0, 0] n=30 ⚠`. Checked when at least one result
 * carries metrics (a run whose items all failed has none to compare with).
 */
function checkMetricKeys(
  recipe: Recipe,
  field: string,
  run: string,
  m: Recipe['rows'][number]['cells'][number]['metric'],
  recs: readonly ResultRecord[],
): void {
  const have = new Set(recs.flatMap((r) => Object.keys(r.metrics ?? {})));
  if (have.size === 0) return;
  const keys: [string, string | undefined][] = [
    ['key', m.key],
    ['num', m.num],
    ['den', m.den],
  ];
  for (const [name, key] of keys) {
    if (key === undefined || have.has(key)) continue;
    const known = [...have].sort();
    throw errors.fileParse(
      `recipe ${recipe.id}`,
      undefined,
      `${field}.${name}: no result of run "${run}" has a metric "${key}"; ${didYouMean(key, known)}its results have: ${known.join(', ')}`,
      'fix the key in the recipe and run `lexcase reproduce` again (finished runs are not run again)',
    );
  }
}

/** A cell's figure: an exact half (a binary fraction such as 29/32) to the even digit, as the papers' Python and trec_eval's `%.4f` round it. */
const fmt = (x: number | null, scale: number) => (x === null ? '—' : fixedHalfEven(x, scale === 100 ? 2 : 4));

function cellText(c: TableCell | undefined, scale: number): string {
  if (!c) return '';
  const paper = `paper ${fmt(c.paper, scale)}`;
  if (c.value === null)
    return `${paper} · lexcase — (${c.status !== 'done' ? c.status : c.failed ? `${c.failed} failed, ${c.failedNote ?? 'left out of n'}; none in n` : 'no items'})`;
  const ci = c.ci ? `[${fmt(c.ci[0], scale)}, ${fmt(c.ci[1], scale)}] ${c.method}` : `(${c.ciNote ?? 'no interval'})`;
  const failed = c.failed ? ` (${c.failed} failed, ${c.failedNote})` : '';
  const over = c.over ? ` (${c.over})` : '';
  const noHits = c.noHits ? ` (${c.noHits.count} without hits left out)` : '';
  const past = c.pastDepth ? ` (the run's ${c.pastDepth.depth} hits only: see the notes)` : '';
  return `${paper} · lexcase ${fmt(c.value, scale)} ${ci} n=${c.n}${over}${noHits}${past}${failed}${c.outsideCi ? ` ⚠${c.failed ? ' (may come from the failed items)' : ''}` : ''}`;
}

export function tableMarkdown(t: TableJson): string {
  // the recipe's names and labels are the user's text: a `|` in one must not end its cell (mdCell)
  const head = `| ${mdCell(t.table)} | ${t.columns.map(mdCell).join(' | ')} |`;
  const sep = `|${' --- |'.repeat(t.columns.length + 1)}`;
  const body = t.rows.map(
    (r) =>
      `| ${mdCell(r.label)}${r.comparable ? '' : ' †'} | ${t.columns
        .map((col) =>
          mdCell(
            cellText(
              r.cells.find((c) => c.column === col),
              t.scale,
            ),
          ),
        )
        .join(' | ')} |`,
  );
  const runs = t.runs.map(
    (s) => `- ${codeSpan(s.id)} (${s.system}): ${s.status}${s.error ? ` — ${s.error}` : ''}${s.argv ? `\n  \`lexcase ${s.argv.join(' ')}\`` : ''}`,
  );
  return [
    `# ${t.title}`,
    '',
    `${t.paper}, ${t.table}. Values in the paper's scale (${t.scale === 100 ? '%' : 'fractions'}); lexcase values with a 95% interval, its method and n. ${t.methods ?? METHODS_NOTE}` +
      `${t.limit !== null ? ` Smoke run: --limit ${t.limit}.` : ''}${t.shard ? ` Shard ${t.shard.index}/${t.shard.count} only (merge the shards for the full table).` : ''}`,
    '',
    head,
    sep,
    ...body,
    '',
    `⚠ the paper's value lies outside lexcase's 95% interval (raised only at n ≥ ${MIN_N} on a non-degenerate interval; beside failed items it may come from them: rerun the command to retry them). † not comparable (different data or setting): no flag is raised.`,
    '',
    ...(t.notes.length ? ['## Notes', '', ...t.notes.map((n) => `- ${n}`), ''] : []),
    '## Runs',
    '',
    ...runs,
    '',
  ].join('\n');
}

export async function writeTable(
  dir: string,
  recipe: Recipe,
  repro: Pick<ReproductionFile, 'limit' | 'shard' | 'runs'>,
): Promise<{ table: TableJson; markdown: string }> {
  const table = await buildTable(dir, recipe, repro);
  const markdown = tableMarkdown(table);
  await writeAtomic(join(dir, 'table.json'), JSON.stringify(table, null, 2) + '\n');
  await writeAtomic(join(dir, 'table.md'), markdown);
  return { table, markdown };
}

/** "Run X's macro figures: no gold item has the label …" for each finished run with a macro cell whose items lack a gold label (eval/metrics/macro.ts). */
function macroCeilingNotes(
  recipe: Recipe,
  results: ReadonlyMap<string, readonly ResultRecord[]>,
  state: ReadonlyMap<string, { status: string }>,
  labels: ReadonlyMap<string, readonly string[] | undefined>,
  limits: ReadonlyMap<string, unknown>,
): string[] {
  const macroRuns = new Set(recipe.rows.flatMap((r) => r.cells.filter((c) => isMacroStat(c.metric.stat)).map((c) => c.run)));
  return [...macroRuns].flatMap((id) => {
    const recs = state.get(id)?.status === 'done' ? (results.get(id) ?? []) : [];
    if (!recs.length) return [];
    const all = macroLabels(recs, labels.get(id));
    const note = macroCeilingNote(labelsWithoutGold(recs, all), all, recs.length);
    return note ? [`Run ${id}'s macro figures: ${note}${limitPrefixClause(limits.get(id))}.`] : [];
  });
}

/** What a run's records say of replies answered from the response cache (cacheAnswersText), '' when none was. */
function cacheAnswersOf(records: readonly ResultRecord[]): string {
  const { sources, calls } = cacheSourcesOf(records);
  return cacheAnswersText(sources, calls);
}
