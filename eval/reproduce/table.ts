/**
 * table.json / table.md of a reproduction: per recipe cell, the paper's printed value, lexcase's
 * value with its 95% bootstrap CI and n (in the paper's scale), and `outsideCi` — true when the
 * paper's value lies outside lexcase's CI (null when the row is not comparable, the paper prints
 * no number, or the run has no items).
 *
 * table.json (read by the explorer):
 *   { recipe, title, paper, table, scale, columns,
 *     rows: [{ label, comparable, cells: [{ column, paper, value, ci: [lo, hi] | null, n, outsideCi, run, status }] }],
 *     notes, limit, shard, runs: [{ id, system, status, error?, argv? }] }
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errors } from '../../core/errors.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { readResults } from '../run-dir.js';
import type { ResultRecord } from '../types.js';
import type { Recipe } from './recipe.js';
import { runDirOf, type ReproductionFile, type RunState } from './reproduction-dir.js';
import { cellValue } from './stats.js';

export interface TableCell {
  column: string;
  paper: number | null;
  value: number | null;
  ci: [number, number] | null;
  n: number;
  outsideCi: boolean | null;
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
  rows: { label: string; comparable: boolean; note?: string; cells: TableCell[] }[];
  notes: string[];
  limit: number | null;
  shard: { index: number; count: number } | null;
  runs: RunState[];
}

const round = (x: number, scale: number) => Number((x * scale).toFixed(scale === 100 ? 2 : 4));

export async function buildTable(dir: string, recipe: Recipe, repro: Pick<ReproductionFile, 'limit' | 'shard' | 'runs'>): Promise<TableJson> {
  const results = new Map<string, ResultRecord[]>();
  for (const run of recipe.runs) {
    const d = runDirOf(dir, run.id);
    if (existsSync(join(d, 'results.jsonl'))) results.set(run.id, (await readResults(d)).records);
  }
  const state = new Map(repro.runs.map((s) => [s.id, s]));
  const rows = recipe.rows.map((row, i) => ({
    label: row.label,
    comparable: row.comparable,
    ...(row.note ? { note: row.note } : {}),
    cells: row.cells.map((c, j): TableCell => {
      const recs = results.get(c.run);
      if (recs) checkMetricKeys(recipe, `rows[${i}].cells[${j}].metric`, c.run, c.metric, recs);
      const status = state.get(c.run)?.status ?? 'not run';
      if (!recs?.length || status === 'unavailable') return { column: c.column, paper: c.paper, value: null, ci: null, n: 0, outsideCi: null, run: c.run, status };
      const ci = cellValue(recs, c.metric);
      if (ci.n === 0) return { column: c.column, paper: c.paper, value: null, ci: null, n: 0, outsideCi: null, run: c.run, status };
      const lo = round(ci.lo, recipe.scale);
      const hi = round(ci.hi, recipe.scale);
      const outsideCi = row.comparable && c.paper !== null ? c.paper < lo || c.paper > hi : null;
      return { column: c.column, paper: c.paper, value: round(ci.estimate, recipe.scale), ci: [lo, hi], n: ci.n, outsideCi, run: c.run, status };
    }),
  }));
  const notes = [
    ...recipe.differences.map((d) => `Difference from the paper: ${d}`),
    ...recipe.notes,
    ...recipe.rows.filter((r) => r.note).map((r) => `${r.label}: ${r.note}`),
  ];
  return { recipe: recipe.id, title: recipe.title, paper: recipe.paper, table: recipe.table, scale: recipe.scale, columns: recipe.columns, rows, notes, limit: repro.limit, shard: repro.shard, runs: repro.runs };
}

/**
 * A metric key no result of the run has is a recipe error (a typo), not a cell of zeros: stat
 * "ratio" over a misspelled key printed `0.0000 [0, 0] n=30 ⚠`. Checked when at least one result
 * carries metrics (a run whose items all failed has none to compare with).
 */
function checkMetricKeys(recipe: Recipe, field: string, run: string, m: Recipe['rows'][number]['cells'][number]['metric'], recs: readonly ResultRecord[]): void {
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

const fmt = (x: number | null, scale: number) => (x === null ? '—' : scale === 100 ? x.toFixed(2) : x.toFixed(4));

function cellText(c: TableCell | undefined, scale: number): string {
  if (!c) return '';
  const paper = `paper ${fmt(c.paper, scale)}`;
  if (c.value === null) return `${paper} · lexcase — (${c.status === 'done' ? 'no items' : c.status})`;
  return `${paper} · lexcase ${fmt(c.value, scale)} [${fmt(c.ci![0], scale)}, ${fmt(c.ci![1], scale)}] n=${c.n}${c.outsideCi ? ' ⚠' : ''}`;
}

export function tableMarkdown(t: TableJson): string {
  const head = `| ${t.table} | ${t.columns.join(' | ')} |`;
  const sep = `|${' --- |'.repeat(t.columns.length + 1)}`;
  const body = t.rows.map((r) => `| ${r.label}${r.comparable ? '' : ' †'} | ${t.columns.map((col) => cellText(r.cells.find((c) => c.column === col), t.scale)).join(' | ')} |`);
  const runs = t.runs.map((s) => `- \`${s.id}\` (${s.system}): ${s.status}${s.error ? ` — ${s.error}` : ''}${s.argv ? `\n  \`lexcase ${s.argv.join(' ')}\`` : ''}`);
  return [
    `# ${t.title}`,
    '',
    `${t.paper}, ${t.table}. Values in the paper's scale (${t.scale === 100 ? '%' : 'fractions'}); lexcase values with a 95% bootstrap CI and n.` +
      `${t.limit !== null ? ` Smoke run: --limit ${t.limit}.` : ''}${t.shard ? ` Shard ${t.shard.index}/${t.shard.count} only (merge the shards for the full table).` : ''}`,
    '',
    head,
    sep,
    ...body,
    '',
    '⚠ the paper\'s value lies outside lexcase\'s 95% CI. † not comparable (different data or setting): no flag is raised.',
    '',
    ...(t.notes.length ? ['## Notes', '', ...t.notes.map((n) => `- ${n}`), ''] : []),
    '## Runs',
    '',
    ...runs,
    '',
  ].join('\n');
}

export async function writeTable(dir: string, recipe: Recipe, repro: Pick<ReproductionFile, 'limit' | 'shard' | 'runs'>): Promise<{ table: TableJson; markdown: string }> {
  const table = await buildTable(dir, recipe, repro);
  const markdown = tableMarkdown(table);
  await writeFile(join(dir, 'table.json'), JSON.stringify(table, null, 2) + '\n');
  await writeFile(join(dir, 'table.md'), markdown);
  return { table, markdown };
}
