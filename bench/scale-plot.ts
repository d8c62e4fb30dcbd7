/**
 * The scale curve's plot and table, from `npm run bench -- --scale` result files:
 *
 *   node dist/bench/scale-plot.js [bench/results/scale-….json …] [--svg docs/bench-scale.svg] [--doc docs/bench.md]
 *     [--projection-doc docs/scale.md] [--drop-loaded]
 *
 * Merges the runs of the given files (default bench/results/scale-latest.json; per size and corpus
 * the last quiet run, else the last run: mergeRuns), renders a log-log Vega-Lite chart
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
 * such figure and exits 2; the result files stay as they are (a quieter rerun of those sizes
 * replaces the loaded runs: mergeRuns). With `--drop-loaded` it leaves each such figure out
 * instead — a loaded build takes its whole run, a loaded query process its method's rows, a loaded
 * shape its row, a loaded BM25S phase the peer's — stamps the rest, and lists what it left out under the table and the
 * projection.
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

/**
 * Merge result files: per (size, corpus) the last quiet run wins (every figure claimed: each phase
 * started at a load within its file's limit, with little other work beside it); a run with a figure
 * not claimed is kept only where no file has a quiet one (and then stops the stamping), so a loaded
 * rerun never hides a quiet run of the same size. Among runs alike, a finished run wins over a
 * failed one and a later file over an earlier one.
 */
/** A merged run made anew (a --reuse run given its build) → the run of its file it stands for. */
const SOURCE = new WeakMap<ScaleRun, ScaleRun>();
/** The run of a result file that merged run `m` stands for (itself, unless mergeRuns made it anew). */
export const sourceRun = (m: ScaleRun): ScaleRun => SOURCE.get(m) ?? m;

export function mergeRuns(all: ScaleResults[]): ScaleRun[] {
  const byKey = new Map<string, { run: ScaleRun; rank: number; file: ScaleResults }>();
  // runs that built their index (and so have build figures), by size, corpus, seed and work dir
  const built = new Map<string, { run: ScaleRun; rank: number }>();
  for (const r of all) {
    const limit = claimLimit(r.machine.usableCpus ?? r.machine.cpus);
    for (const run of r.runs) {
      const rank = (run.status === 'ok' ? 1 : 0) + (run.status === 'ok' && unclaimedFigures([run], limit).length === 0 ? 1 : 0);
      const key = `${run.size}:${run.profile}`;
      const had = byKey.get(key);
      if (!had || rank >= had.rank) byKey.set(key, { run, rank, file: r });
      if (run.build && !run.reused) {
        const where = `${key}:${r.options.seed}:${r.options.workDir}`;
        const b = built.get(where);
        if (!b || rank >= b.rank) built.set(where, { run, rank });
      }
    }
  }
  // A --reuse run queried the index that a --keep run of the same work dir, size, corpus and seed
  // built: that run's build (and corpus) figures are its index's — before, the table said "reused"
  // and the projection fitted the build without that size.
  const withBuild = ({ run, file }: { run: ScaleRun; file: ScaleResults }): ScaleRun => {
    if (!run.reused || run.build) return run;
    const b = built.get(`${run.size}:${run.profile}:${file.options.seed}:${file.options.workDir}`)?.run;
    if (!b?.build) return run;
    const withB: ScaleRun = { ...run, build: b.build, ...(b.generate ? { generate: b.generate } : {}) };
    SOURCE.set(withB, run);
    return withB;
  };
  return [...byKey.values()].map(withBuild).sort((a, b) => a.size - b.size || a.profile.localeCompare(b.profile, 'en'));
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

/**
 * `run` without its figures taken on a loaded machine — the build (then the whole run), a query
 * process (then all its shapes), a shape, the BM25S peer — or null when nothing is left; `dropped`
 * gets what was left out and why.
 */
export function withoutLoaded(run: ScaleRun, limit: number, dropped: { what: string; reason: string }[]): ScaleRun | null {
  const loaded = (r: ScaleRun) => unclaimedFigures([r], limit);
  if (run.build && loaded({ ...run, queries: [], bm25s: undefined }).length) {
    dropped.push(...loaded(run));
    return null;
  }
  const queries = run.queries.flatMap((q) => {
    const process = loaded({ ...run, build: undefined, queries: [{ ...q, shapes: [] }], bm25s: undefined });
    if (process.length) {
      dropped.push(...loaded({ ...run, build: undefined, queries: [q], bm25s: undefined }));
      return [];
    }
    const shapes = q.shapes.filter((sh) => {
      const bad = loaded({ ...run, build: undefined, queries: [{ ...q, shapes: [sh] }], bm25s: undefined });
      dropped.push(...bad);
      return bad.length === 0;
    });
    return shapes.length ? [{ ...q, shapes }] : [];
  });
  const peerBad = run.bm25s ? loaded({ ...run, build: undefined, queries: [] }) : [];
  dropped.push(...peerBad);
  if (!queries.length && !run.build) return null;
  return { ...run, queries, ...(peerBad.length ? { bm25s: undefined } : {}) };
}

export async function writeScaleDocs(
  files: string[],
  svgPath: string,
  docPath: string,
  projectionDoc?: string,
  opts: { dropLoaded?: boolean } = {},
): Promise<{ points: number; runs: number; dropped: { file: string; what: string; reason: string }[] }> {
  const all: ScaleResults[] = [];
  for (const f of files) {
    const r = JSON.parse(await readFile(f, 'utf8')) as ScaleResults;
    if (r.schema !== 'lexcase-bench-scale/1') throw new Error(`${f}: not a scale result file (schema ${String(r.schema)})`);
    all.push(r);
  }
  const usable = (r: ScaleResults) => r.machine.usableCpus ?? r.machine.cpus;
  const merged0 = mergeRuns(all);
  // each file's run → the merged run that stands for it (a --reuse run with the build of the run that built its index)
  const mergedOf = new Map(merged0.map((m) => [sourceRun(m), m]));
  // --drop-loaded: each figure taken on a loaded machine is left out (and listed under the table) instead of stopping the stamping.
  const dropped: { file: string; what: string; reason: string }[] = [];
  const stamped = new Map<ScaleRun, ScaleRun>();
  all.forEach((r, i) => {
    for (const x of r.runs) {
      const m = mergedOf.get(x);
      if (!m) continue;
      if (!opts.dropLoaded) {
        stamped.set(x, m);
        continue;
      }
      const d: { what: string; reason: string }[] = [];
      const y = withoutLoaded(m, claimLimit(usable(r)), d);
      dropped.push(...d.map((f) => ({ file: relative(ROOT, files[i]), ...f })));
      if (y) stamped.set(x, y);
    }
  });
  const runs = merged0.filter((m) => stamped.has(sourceRun(m))).map((m) => stamped.get(sourceRun(m))!);
  const fileRuns = (r: ScaleResults) => r.runs.filter((x) => stamped.has(x)).map((x) => stamped.get(x)!);
  // Before anything is written: every figure stamped must come from a quiet phase.
  const loaded = all.flatMap((r, i) => unclaimedFigures(fileRuns(r), claimLimit(usable(r))).map((f) => ({ file: relative(ROOT, files[i]), ...f })));
  if (loaded.length) throw new NotClaimedError(loaded);
  const points = curvePoints(runs);
  await writeFile(svgPath, await renderSvg(scaleSpec(points)));
  const targets = all.flatMap((r) => checkScaleTargets(fileRuns(r), usable(r)));
  const merged: ScaleResults = { ...all[all.length - 1], runs, targets };
  const loads = all.map(
    (r, i) =>
      `\`${relative(ROOT, files[i])}\` (${r.startedAt.slice(0, 16)}Z, ${r.machine.usableCpus ?? r.machine.cpus} of ${r.machine.cpus} cores (${r.machine.cpuModel}), load at start ${r.machine.loadAvgAtStart[0]}, git ${r.gitSha ? `${r.gitSha.slice(0, 7)}${r.gitSha.endsWith('-dirty') ? '-dirty' : ''}` : '?'})`,
  );
  const block = [
    BEGIN,
    `<!-- generated by node dist/bench/scale-plot.js ${files.map((f) => relative(ROOT, f)).join(' ')}${opts.dropLoaded ? ' --drop-loaded' : ''}; do not edit -->`,
    '',
    `![scale curve: p50 latency and build time against passages, log-log](${relative(dirname(docPath), svgPath)})`,
    '',
    renderScaleMarkdown([merged]),
    '',
    `From: ${loads.join('; ')}.`,
    ...(dropped.length
      ? [
          '',
          `Not stamped (taken on a loaded machine; the result files keep them): ${dropped.map((f) => `${f.what} — ${f.reason.replace(/^not claimed: /, '')} (\`${f.file}\`)`).join('; ')}.`,
        ]
      : []),
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
      ...(dropped.length ? ['', `Left out as taken on a loaded machine: ${dropped.map((f) => f.what).join('; ')} (bench.md lists why).`] : []),
      PEND,
    ].join('\n');
    await fillBlock(projectionDoc, PBEGIN, PEND, pb);
  }
  return { points: points.length, runs: runs.length, dropped };
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
    options: { svg: { type: 'string' }, doc: { type: 'string' }, 'projection-doc': { type: 'string' }, 'drop-loaded': { type: 'boolean' } },
  });
  const files = (positionals.length ? positionals : [resolve(ROOT, 'bench/results/scale-latest.json')]).map((f) => resolve(f));
  const svg = resolve(values.svg ?? resolve(ROOT, 'docs/bench-scale.svg'));
  const doc = resolve(values.doc ?? resolve(ROOT, 'docs/bench.md'));
  const pdoc = resolve(values['projection-doc'] ?? resolve(ROOT, 'docs/scale.md'));
  writeScaleDocs(files, svg, doc, pdoc, { dropLoaded: values['drop-loaded'] === true })
    .then((r) => {
      for (const f of r.dropped) process.stderr.write(`scale-plot: left out, ${f.reason}: ${f.what} (${f.file})\n`);
      process.stderr.write(`scale-plot: ${r.runs} runs, ${r.points} points → ${basename(svg)}, ${basename(doc)}\n`);
    })
    .catch((err) => {
      if (err instanceof NotClaimedError) {
        for (const f of err.figures) process.stderr.write(`scale-plot: ${f.reason}: ${f.what} (${f.file})\n`);
        process.stderr.write(
          `scale-plot: refusing to stamp ${basename(doc)} and ${basename(svg)} from a loaded run (nothing written; the result files are kept). Rerun those sizes on an idle machine, or pass --drop-loaded to leave those figures out (listed under the table).\n`,
        );
        process.exit(2);
      }
      process.stderr.write(`scale-plot failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    });
}
