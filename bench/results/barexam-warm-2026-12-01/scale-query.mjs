// The scale bench's own query phase (bench/scale-child.ts scaleQuery: open, per shape 2 warm-ups,
// the timed cold pass, then the warm second pass) on a kept index, without a build or a settle wait;
// prints each shape's cold and warm figures, serving RSS and the 1-minute load at the start and end.
//   node scale-query.mjs BUILD_WT INDEX COUNT OUT.json
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
const [build, index, count, out] = process.argv.slice(2);
const { scaleQuery } = await import(pathToFileURL(`${build}/dist/bench/scale-child.js`).href);
const load0 = loadavg()[0];
const r = await scaleQuery({ kind: 'scale-query', n: 10_000_000, seed: 42, profile: 'bench', indexDir: index, method: 'bm25', queries: Number(count), resultFile: out });
for (const s of r.shapes) delete s.top10;
writeFileSync(out, JSON.stringify({ ...r, load1: [load0, loadavg()[0]] }, null, 1));
for (const s of r.shapes)
  console.log(`${s.shape}@${s.k}: cold p50 ${s.p50Ms} / p95 ${s.p95Ms} ms (CPU p50 ${s.cpuP50Ms}, ${s.cpuNsPerPosting} ns/posting); warm p50 ${s.warm.p50Ms} / p95 ${s.warm.p95Ms} ms (CPU p50 ${s.warm.cpuP50Ms}); load ${s.loadAvgAtStart[0]} → ${s.loadAvgAtEnd[0]}`);
console.log(`open ${r.openS} s, serving RSS ${r.servingRssMiB} MiB (peak ${r.servingPeakRssMiB}), load ${load0} → ${loadavg()[0]}`);
process.exit(0);
