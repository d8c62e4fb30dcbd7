// Prints the A/B table of docs/notes/2026-12-01-handoff.md from the ab-*.json files here: per index
// and threads, every round's new ÷ old ratio (CPU p50, wall p50, wall p95) over all runs, their
// median, the absolute p50s (medians over rounds) and the 1-minute load range.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const rows = new Map();
for (const f of readdirSync(dir).filter((n) => /^ab-.*\.json$/.test(n)).sort()) {
  const d = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8'));
  const corpus = f.includes('zipf') ? 'zipf 856,835' : 'bench 856,835';
  for (const r of d.ratios) {
    const key = `${corpus}|${r.threads}`;
    if (!rows.has(key)) rows.set(key, { ratios: [], runs: [], files: new Set() });
    rows.get(key).ratios.push(r);
    rows.get(key).files.add(f);
  }
  for (const r of d.runs) {
    const key = `${corpus}|${r.threads}`;
    rows.get(key).runs.push(r);
  }
}
const f2 = (x) => x.toFixed(2);
const load = (u) => Number(u.match(/load average: ([\d.]+)/)[1]);
console.log('| index | threads | rounds | CPU p50 ratios | median | wall p50 ratios | median | wall p95 median | CPU p50 ms old → new | wall p50 ms old → new | 1-min load |');
console.log('|---|---|---:|---|---:|---|---:|---:|---|---|---|');
for (const [key, { ratios, runs }] of rows) {
  const [corpus, threads] = key.split('|');
  const abs = (arm, f) => median(runs.filter((r) => r.arm === arm).map((r) => r[f]));
  const loads = runs.flatMap((r) => [load(r.uptimeBefore), load(r.uptimeAfter)]);
  console.log(
    `| ${corpus} | ${threads} | ${ratios.length} | ${ratios.map((r) => f2(r.cpuP50)).join(' ')} | ${f2(median(ratios.map((r) => r.cpuP50)))} | ${ratios.map((r) => f2(r.wallP50)).join(' ')} | ${f2(median(ratios.map((r) => r.wallP50)))} | ${f2(median(ratios.map((r) => r.wallP95)))} | ${f2(abs('old', 'cpuP50'))} → ${f2(abs('new', 'cpuP50'))} | ${f2(abs('old', 'wallP50'))} → ${f2(abs('new', 'wallP50'))} | ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} |`,
  );
}
