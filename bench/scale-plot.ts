/**
 * The scale curve's plot and table, from `npm run bench -- --scale` result files:
 *
 *   node dist/bench/scale-plot.js [bench/results/scale-….json …] [--svg docs/bench-scale.svg] [--doc docs/bench.md]
 *     [--projection-doc docs/scale.md]
 *
 * Merges the runs of the given files (default bench/results/scale-latest.json; a later file's run
 * of the same size, corpus and method replaces an earlier one), renders a log-log Vega-Lite chart
 * (p50 latency per query shape and method, and build wall time, against passages) to SVG in Node
 * (eval/plots/render-svg.ts), and rewrites the block between `<!-- scale:begin -->` and
 * `<!-- scale:end -->` in the doc with the image, the table and the files it came from, and the
 * block between `<!-- scale-projection:begin -->` and `<!-- scale-projection:end -->` in the
 * projection doc with a power law per metric fitted to the largest sizes (up to 3) and its value at
 * 100M passages. Nothing in those blocks is typed by hand.
 *
 * Quiet machine only (issue 38 item 5, bench/quiet.ts): when any figure of the merged runs comes
 * from a phase that started at a 1-min load above 0.75 × the run's usable cores (1.5 on 2), or had
 * more than 0.25 cores of other work beside it (machine busy CPU − the bench's own, ÷ wall), or has
 * no start load or CPU reading recorded, it writes nothing — no SVG, no doc block — prints
 * `not claimed: others X cores > 0.25 (machine M, own O)` (or `load X at start > 1.5`) for each
 * such figure and exits 2; the result files stay as they are (a quieter rerun of those sizes,
 * merged after them, replaces the loaded runs).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderSvg } from '../eval/plots/render-svg.js';
import type { PlotSpec } from '../eval/plots/specs.js';
import { checkScaleTargets, renderScaleMarkdown, unclaimedFigures, type ScaleResults, type ScaleRun } from './scale.js';
import { claimLimit } from './quiet.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), fileURLToPath(import.meta.url).endsWith('.ts') ? '..' : '../..');

export interface CurvePoint {
  passages: number;
  series: string;
  metric: 'p50 latency (ms)' | 'build wall (s)';
  value: number;
  load: number;
}

/** Merge result files: the last run of each (size, corpus) wins. */
export function mergeRuns(all: ScaleResults[]): ScaleRun[] {
  const byKey = new Map<string, ScaleRun>();
  for (const r of all)
    for (const run of r.runs) if (run.status === 'ok' || !byKey.has(`${run.size}:${run.profile}`)) byKey.set(`${run.size}:${run.profile}`, run);
  return [...byKey.values()].sort((a, b) => a.size - b.size || a.profile.localeCompare(b.profile));
}

export function curvePoints(runs: ScaleRun[]): CurvePoint[] {
  const pts: CurvePoint[] = [];
  for (const r of runs) {
    if (r.build) pts.push({ passages: r.size, series: `build (${r.profile})`, metric: 'build wall (s)', value: r.build.buildS, load: r.build.loadAvgAtStart });
    for (const q of r.queries)
      for (const s of q.shapes) {
        const name = s.shape === 'agent' ? `agent k10 (${r.profile})` : s.shape === 'worst' ? 'worst case k1000 (zipf)' : 'Bar Exam question k1000';
        pts.push({ passages: r.size, series: `${q.method} ${name}`, metric: 'p50 latency (ms)', value: Math.max(s.p50Ms, 0.01), load: s.loadAvgAtStart[0] });
      }
  }
  return pts;
}

export function scaleSpec(points: CurvePoint[]): PlotSpec {
  const panel = (metric: CurvePoint['metric'], title: string) => ({
    title,
    width: 360,
    height: 260,
    transform: [{ filter: { field: 'metric', equal: metric } }],
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'passages', type: 'quantitative', scale: { type: 'log' }, axis: { title: 'passages (log)', format: '~s' } },
      y: { field: 'value', type: 'quantitative', scale: { type: 'log' }, axis: { title: `${metric} (log)` } },
      color: { field: 'series', type: 'nominal', legend: { title: null, orient: 'bottom', columns: 2, labelLimit: 300 } },
      tooltip: [{ field: 'series' }, { field: 'passages' }, { field: 'value' }, { field: 'load', title: 'load (1-min)' }],
    },
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    background: 'white',
    data: { values: points },
    hconcat: [panel('p50 latency (ms)', 'Query p50 by shape (exact)'), panel('build wall (s)', 'Build wall time')],
    resolve: { scale: { color: 'independent' } },
  };
}

/** A power law v = a·n^b fitted (least squares on logs) to the largest sizes measured, and its value at `at` passages. */
export interface Projection {
  metric: string;
  profile: string;
  sizes: number[];
  measuredAtLargest: number;
  exponent: number;
  projected: number;
  unit: string;
}

export function fitPowerLaw(pts: { n: number; v: number }[]): { a: number; b: number } {
  const xs = pts.map((p) => Math.log(p.n));
  const ys = pts.map((p) => Math.log(p.v));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
  }
  const b = sxx > 0 ? sxy / sxx : 1;
  return { a: Math.exp(my - b * mx), b };
}

/** Projections to `at` passages from the (up to 3) largest sizes of each corpus with that metric. */
export function projections(runs: ScaleRun[], at = 100_000_000): Projection[] {
  const series = new Map<string, { metric: string; profile: string; unit: string; pts: { n: number; v: number }[] }>();
  const add = (metric: string, profile: string, unit: string, n: number, v: number | undefined) => {
    if (v === undefined || !(v > 0)) return;
    const key = `${profile}|${metric}`;
    let s = series.get(key);
    if (!s) series.set(key, (s = { metric, profile, unit, pts: [] }));
    s.pts.push({ n, v });
  };
  for (const r of runs) {
    const b = r.build;
    if (b) {
      add('build wall', r.profile, 's', r.size, b.buildS);
      add('build CPU', r.profile, 's', r.size, b.buildCpuS);
      add('build peak RSS', r.profile, 'MiB', r.size, b.buildPeakRssMiB);
      add('index on disk', r.profile, 'MiB', r.size, b.indexBytes / 2 ** 20);
      add('index without doc store', r.profile, 'MiB', r.size, b.indexBytesNoDocs / 2 ** 20);
    }
    for (const q of r.queries) {
      add(`serving peak RSS (${q.method})`, r.profile, 'MiB', r.size, q.servingPeakRssMiB);
      add(`open (${q.method})`, r.profile, 's', r.size, q.openS);
      for (const sh of q.shapes) add(`${q.method} ${sh.shape} k${sh.k} p50`, r.profile, 'ms', r.size, sh.p50Ms);
    }
  }
  const out: Projection[] = [];
  for (const s of series.values()) {
    const pts = [...s.pts].sort((x, y) => x.n - y.n).slice(-3);
    if (pts.length < 2) continue;
    const { a, b } = fitPowerLaw(pts);
    out.push({
      metric: s.metric,
      profile: s.profile,
      sizes: pts.map((p) => p.n),
      measuredAtLargest: pts[pts.length - 1].v,
      exponent: Math.round(b * 100) / 100,
      projected: a * at ** b,
      unit: s.unit,
    });
  }
  return out;
}

const sig = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en') : x >= 10 ? x.toFixed(1) : x.toFixed(2));

export function renderProjections(ps: Projection[], at = 100_000_000): string {
  const lines = [
    `| corpus | metric | fitted on (passages) | at the largest | exponent b (v ∝ n^b) | projected at ${at.toLocaleString('en')} |`,
    '|---|---|---|---:|---:|---:|',
  ];
  for (const p of ps)
    lines.push(
      `| ${p.profile} | ${p.metric} | ${p.sizes.map((n) => n.toLocaleString('en')).join(', ')} | ${sig(p.measuredAtLargest)} ${p.unit} | ${p.exponent} | ${sig(p.projected)} ${p.unit} |`,
    );
  return lines.join('\n');
}

/** A run the plot will not stamp into the docs: figures taken on a loaded machine. */
export class NotClaimedError extends Error {
  constructor(readonly figures: { file: string; what: string; reason: string }[]) {
    super(
      `refusing to stamp the docs: ${figures.length} figure(s) taken on a loaded machine\n${figures.map((f) => `  ${f.what} (${f.file}): ${f.reason}`).join('\n')}`,
    );
    this.name = 'NotClaimedError';
  }
}

const BEGIN = '<!-- scale:begin -->';
const END = '<!-- scale:end -->';

export async function writeScaleDocs(files: string[], svgPath: string, docPath: string, projectionDoc?: string): Promise<{ points: number; runs: number }> {
  const all: ScaleResults[] = [];
  for (const f of files) {
    const r = JSON.parse(await readFile(f, 'utf8')) as ScaleResults;
    if (r.schema !== 'lexcase-bench-scale/1') throw new Error(`${f}: not a scale result file (schema ${String(r.schema)})`);
    all.push(r);
  }
  const runs = mergeRuns(all);
  const kept = new Set(runs);
  const usable = (r: ScaleResults) => r.machine.usableCpus ?? r.machine.cpus;
  // Before anything is written: every figure stamped must come from a quiet phase.
  const loaded = all.flatMap((r, i) =>
    unclaimedFigures(
      r.runs.filter((x) => kept.has(x)),
      claimLimit(usable(r)),
    ).map((f) => ({ file: relative(ROOT, files[i]), ...f })),
  );
  if (loaded.length) throw new NotClaimedError(loaded);
  const points = curvePoints(runs);
  await writeFile(svgPath, await renderSvg(scaleSpec(points)));
  const targets = all.flatMap((r) =>
    checkScaleTargets(
      r.runs.filter((x) => kept.has(x)),
      usable(r),
    ),
  );
  const merged: ScaleResults = { ...all[all.length - 1], runs, targets };
  const loads = all.map(
    (r, i) =>
      `\`${relative(ROOT, files[i])}\` (${r.startedAt.slice(0, 16)}Z, ${r.machine.usableCpus ?? r.machine.cpus} of ${r.machine.cpus} cores (${r.machine.cpuModel}), load at start ${r.machine.loadAvgAtStart[0]}, git ${r.gitSha?.slice(0, 7) ?? '?'})`,
  );
  const block = [
    BEGIN,
    `<!-- generated by node dist/bench/scale-plot.js ${files.map((f) => relative(ROOT, f)).join(' ')}; do not edit -->`,
    '',
    `![scale curve: p50 latency and build time against passages, log-log](${relative(dirname(docPath), svgPath)})`,
    '',
    renderScaleMarkdown([merged]),
    '',
    `From: ${loads.join('; ')}.`,
    END,
  ].join('\n');
  await fillBlock(docPath, BEGIN, END, block);
  if (projectionDoc) {
    const pb = [
      PBEGIN,
      `<!-- generated by node dist/bench/scale-plot.js from the same result files; do not edit -->`,
      '',
      renderProjections(projections(runs)),
      '',
      `Fitted on: ${loads.join('; ')}.`,
      PEND,
    ].join('\n');
    await fillBlock(projectionDoc, PBEGIN, PEND, pb);
  }
  return { points: points.length, runs: runs.length };
}

const PBEGIN = '<!-- scale-projection:begin -->';
const PEND = '<!-- scale-projection:end -->';

async function fillBlock(docPath: string, begin: string, end: string, block: string): Promise<void> {
  const doc = await readFile(docPath, 'utf8');
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${docPath}: no ${begin} … ${end} block to fill`);
  await writeFile(docPath, doc.slice(0, a) + block + doc.slice(b + end.length));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { svg: { type: 'string' }, doc: { type: 'string' }, 'projection-doc': { type: 'string' } },
  });
  const files = (positionals.length ? positionals : [resolve(ROOT, 'bench/results/scale-latest.json')]).map((f) => resolve(f));
  const svg = resolve(values.svg ?? resolve(ROOT, 'docs/bench-scale.svg'));
  const doc = resolve(values.doc ?? resolve(ROOT, 'docs/bench.md'));
  const pdoc = resolve(values['projection-doc'] ?? resolve(ROOT, 'docs/scale.md'));
  writeScaleDocs(files, svg, doc, pdoc)
    .then((r) => process.stderr.write(`scale-plot: ${r.runs} runs, ${r.points} points → ${basename(svg)}, ${basename(doc)}\n`))
    .catch((err) => {
      if (err instanceof NotClaimedError) {
        for (const f of err.figures) process.stderr.write(`scale-plot: ${f.reason}: ${f.what} (${f.file})\n`);
        process.stderr.write(
          `scale-plot: refusing to stamp ${basename(doc)} and ${basename(svg)} from a loaded run (nothing written; the result files are kept). Rerun those sizes on an idle machine.\n`,
        );
        process.exit(2);
      }
      process.stderr.write(`scale-plot failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
