// Old and new builds in one process (threads 0), the same queries alternated query by query, CPU summed per arm.
import { pathToFileURL } from 'node:url';
const [oldB, newB, index, count, profile, shape = 'agent', rounds = '4'] = process.argv.slice(2);
const k = shape === 'agent' ? 10 : 1000;
const arms = {};
for (const [name, b] of [['old', oldB], ['new', newB]]) {
  const load = (p) => import(pathToFileURL(`${b}/dist/${p}`).href);
  arms[name] = await (await load('retrieval/open.js')).openRetriever(index, 'bm25', { threads: 0 });
}
const { syntheticQueries } = await import(pathToFileURL(`${newB}/dist/bench/synthetic.js`).href);
const qs = shape === 'barexam' ? (await import(pathToFileURL(`${newB}/dist/bench/scale-child.js`).href)).scaleQueries(profile, 'barexam', Number(count), 42) : syntheticQueries({ count: Number(count), seed: 42, profile, shape: shape === 'agent' ? 'agent' : 'long' });
for (const a of Object.values(arms)) for (const q of qs) await a.search(q, { k });
for (let r = 0; r < Number(rounds); r++) {
  const cpu = { old: [], new: [] };
  for (const q of qs) for (const name of r % 2 ? ['new', 'old'] : ['old', 'new']) {
    const c = process.cpuUsage(); await arms[name].search(q, { k }); const d = process.cpuUsage(c); cpu[name].push((d.user + d.system) / 1000);
  }
  const sum = (a) => a.reduce((x, y) => x + y, 0);
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  console.log(`round ${r}: cpu mean old ${(sum(cpu.old) / qs.length).toFixed(3)} new ${(sum(cpu.new) / qs.length).toFixed(3)} ratio ${(sum(cpu.new) / sum(cpu.old)).toFixed(3)}; p50 old ${med(cpu.old).toFixed(3)} new ${med(cpu.new).toFixed(3)} ratio ${(med(cpu.new) / med(cpu.old)).toFixed(3)}`);
}
process.exit(0);
