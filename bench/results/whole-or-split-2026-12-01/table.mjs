// The note's table from the ab-*.json files: per index and threads setting, the per-round new ÷ old
// ratios (CPU p50/p95, wall p50/p95, RSS), their medians, and the range of 1-minute loads in the
// runs' `uptime` before and after.   node table.mjs ab-*.json
import { readFileSync } from 'node:fs';

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (x) => x.toFixed(2);
for (const file of process.argv.slice(2)) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  for (const threads of r.config.threads.split(',')) {
    const rs = r.ratios.filter((x) => x.threads === threads);
    const loads = r.runs.filter((x) => x.threads === threads).flatMap((x) => [x.uptimeBefore, x.uptimeAfter]).map((u) => Number(u.match(/load average: ([\d.]+)/)[1]));
    const col = (k) => `${rs.map((x) => f(x[k])).join(' ')} | ${f(median(rs.map((x) => x[k])))}`;
    const abs = (arm, k) => f(median(r.runs.filter((x) => x.threads === threads && x.arm === arm).map((x) => x[k])));
    console.log(
      `| ${file.replace(/^ab-|\.json$/g, '')} | ${threads} | ${rs.length} | ${col('cpuP50')} | ${col('cpuP95')} | ${col('wallP50')} | ${f(median(rs.map((x) => x.wallP95)))} | ${abs('old', 'cpuP50')} → ${abs('new', 'cpuP50')} | ${abs('old', 'rssMiB')} → ${abs('new', 'rssMiB')} | ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} |`,
    );
  }
}
