import { pathToFileURL } from 'node:url';
const [build, index, count, profile = 'bench', flag = 'byLength', shape = 'agent', rounds = '3'] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openRetriever } = await load('retrieval/open.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const { blockedPruning } = await load('retrieval/sparse/blocked-taat.js');
const r = await openRetriever(index, 'bm25', { threads: 0 });
const k = shape === 'agent' ? 10 : 1000;
const qs = shape === 'barexam' ? (await load('bench/scale-child.js')).scaleQueries(profile, 'barexam', Number(count) + 2, 42) : syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape });
for (const on of [false, true]) { blockedPruning[flag] = on; for (const q of qs) await r.search(q, { k }); }
const cpu = { 0: [], 1: [] };
for (let round = 0; round < Number(rounds); round++)
  for (const [qi, q] of qs.slice(2).entries()) {
    for (const arm of (qi + round) % 2 ? [0, 1] : [1, 0]) {
      blockedPruning[flag] = arm === 1;
      const c = process.cpuUsage();
      await r.search(q, { k });
      const d = process.cpuUsage(c);
      cpu[arm].push((d.user + d.system) / 1000);
    }
  }
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]; };
const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
const ratios = cpu[1].map((v, i) => v / cpu[0][i]);
console.log(JSON.stringify({ shape, profile, off: { p50: pct(cpu[0], 0.5), p95: pct(cpu[0], 0.95), mean: mean(cpu[0]) }, on: { p50: pct(cpu[1], 0.5), p95: pct(cpu[1], 0.95), mean: mean(cpu[1]) }, ratioP50: pct(ratios, 0.5), meanRatio: mean(cpu[1]) / mean(cpu[0]) }));
process.exit(0);
