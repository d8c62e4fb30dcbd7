// Prints the note's A/B table (docs/notes/2026-12-01-barexam-shape.md) from this folder's ab-*.json.
import { existsSync, readFileSync } from 'node:fs';
const dir = new URL('./', import.meta.url);
const med = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f2 = (x) => x.toFixed(2);
const load = (u) => Number(u.match(/load average: ([\d.]+)/)[1]);
console.log('| corpus, shape | threads | rounds | CPU p50 ratios \\| median | CPU mean ratio median | CPU p95 ratio median | wall p50 ratio median | CPU p50 ms old → new | ns/posting old → new | 1-min load |');
console.log('|---|---|---:|---|---:|---:|---:|---|---|---|');
for (const name of ['bench856k-barexam', 'bench856k-barexam-2', 'bench10m-barexam', 'bench856k-barexam-gate100']) {
  const p = new URL(`ab-${name}.json`, dir);
  if (!existsSync(p)) continue;
  const j = JSON.parse(readFileSync(p, 'utf8'));
  for (const t of j.config.threads.split(',')) {
    const rs = j.ratios.filter((r) => r.threads === t);
    const runs = j.runs.filter((r) => r.threads === t);
    const arm = (a, f) => med(runs.filter((r) => r.arm === a).map((r) => r[f]));
    const loads = runs.flatMap((r) => [load(r.uptimeBefore), load(r.uptimeAfter)]);
    console.log(
      `| ${name} | ${t} | ${rs.length} | ${rs.map((r) => f2(r.cpuP50)).join(' ')} \\| ${f2(med(rs.map((r) => r.cpuP50)))} | ${f2(med(rs.map((r) => r.cpuMean)))} | ${f2(med(rs.map((r) => r.cpuP95)))} | ${f2(med(rs.map((r) => r.wallP50)))} | ${f2(arm('old', 'cpuP50'))} → ${f2(arm('new', 'cpuP50'))} | ${f2(arm('old', 'nsPerPosting'))} → ${f2(arm('new', 'nsPerPosting'))} | ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} |`,
    );
  }
}
