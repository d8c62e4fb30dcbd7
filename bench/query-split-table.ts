/**
 * The per-CPU table of a scale-bench result's query splits (bench/query-split.ts), for the notes:
 *
 *   node dist/bench/query-split-table.js bench/results/scale-….json
 *
 * One row per size, corpus, method, shape, query process and pass (cold, warm): the wall p50, the
 * calling thread's and the worker's scoring p50, the wait p50, the GC pauses (calling thread +
 * worker, Σ over the pass), each CPU's scoring p50 (ranges of either thread that finished on it),
 * and the median over the pass's queries of cpu1's range time ÷ cpu0's (two CPUs; 1 when they run
 * alike, ~1.5 when one CPU is slow). Prints markdown; numbers as the result file holds them.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { latencyStats } from './measure.js';
import { cpuRatio, type PassSplit } from './query-split.js';
import type { ScaleResults } from './scale.js';
import type { ShapeResult } from './scale-child.js';

export function splitTable(res: ScaleResults): string {
  const lines = [
    '| passages | corpus | method | shape | process | pass | wall p50 ms | own range p50 | worker p50 | wait p50 | GC ms (main + worker) | by CPU: p50 ms (ranges) | cpu1 ÷ cpu0 (median) |',
    '|---:|---|---|---|---:|---|---:|---:|---:|---:|---|---|---:|',
  ];
  // the bench's own percentile (measure.ts), so the wall p50 is the figure the bench reported
  const wallP50 = (p: PassSplit) => latencyStats(p.queries.map((q) => q[0])).p50Ms;
  for (const r of res.runs)
    for (const q of r.queries)
      for (const s of q.shapes as ShapeResult[]) {
        const splits = s.processes?.length ? s.processes.map((p) => p.split) : [s.split];
        splits.forEach((sp, i) => {
          if (!sp) return;
          for (const pass of ['cold', 'warm'] as const) {
            const p = sp[pass];
            const byCpu = Object.entries(p.byCpu ?? {})
              .map(([c, v]) => `${c} ${v.p50Ms} (${v.ranges})`)
              .join(', ');
            lines.push(
              `| ${r.size.toLocaleString('en-US')} | ${r.profile} | ${q.method} | ${s.shape}@${s.k} | ${i + 1} | ${pass} | ${wallP50(p)} | ${p.localP50Ms} | ${p.workerP50Ms} | ${p.waitP50Ms} | ${p.mainGcMs} + ${p.workerGcMs} | ${byCpu || '–'} | ${cpuRatio(p) ?? '–'} |`,
            );
          }
        });
      }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.slice(2);
  if (!files.length) {
    process.stderr.write('usage: node dist/bench/query-split-table.js RESULT.json [RESULT.json …]\n');
    process.exit(2);
  }
  for (const f of files) process.stdout.write(`${f}\n\n${splitTable(JSON.parse(await readFile(f, 'utf8')) as ScaleResults)}\n\n`);
}
