// Summary of run.sh's rounds: per arm, medians over rounds of each round's p50/p95 (wall, CPU), and
// all queries pooled. node summarize.mjs OUTDIR
import { readdirSync, readFileSync } from 'node:fs';
const dir = process.argv[2];
const runs = readdirSync(dir).filter((f) => f.endsWith('.json') && f.startsWith('round')).map((f) => JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')));
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; };
const med = (a) => pct(a, 0.5);
const r2 = (x) => +x.toFixed(2);
const out = { rounds: runs.length / 2, arms: {} };
for (const arm of ['js', 'wasm']) {
  const rs = runs.filter((x) => x.label === arm);
  out.arms[arm] = { loadavgStart: rs.map((x) => x.loadavgStart[0]), rssMiB: rs.map((x) => x.rssMiB) };
  for (const shape of ['barexam', 'agent']) {
    const s = rs.map((x) => x.shapes[shape]);
    out.arms[arm][shape] = {
      wallP50: r2(med(s.map((v) => pct(v.ms, 0.5)))),
      wallP95: r2(med(s.map((v) => pct(v.ms, 0.95)))),
      cpuP50: r2(med(s.map((v) => pct(v.cpu, 0.5)))),
      cpuP95: r2(med(s.map((v) => pct(v.cpu, 0.95)))),
      cpuMean: r2(med(s.map((v) => v.cpu.reduce((a, b) => a + b, 0) / v.cpu.length))),
      perRound: s.map((v) => ({ wallP50: r2(pct(v.ms, 0.5)), cpuP50: r2(pct(v.cpu, 0.5)) })),
    };
  }
}
for (const shape of ['barexam', 'agent']) {
  const a = out.arms.js[shape], b = out.arms.wasm[shape];
  out[`${shape} wasm÷js`] = { wallP50: r2(b.wallP50 / a.wallP50), cpuP50: r2(b.cpuP50 / a.cpuP50), cpuMean: r2(b.cpuMean / a.cpuMean), wallP95: r2(b.wallP95 / a.wallP95) };
}
console.log(JSON.stringify(out, null, 1));
