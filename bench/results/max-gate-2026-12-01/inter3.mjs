// Several builds in one process (threads 0), the same queries run by each build query by query (the
// order rotated per query and per round), CPU per query per build; top-k checked equal across builds.
//   node inter3.mjs INDEX COUNT PROFILE SHAPE ROUNDS NAME=BUILD ...
import { pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
const [index, count, profile, shape = 'agent', rounds = '4', ...builds] = process.argv.slice(2);
const k = shape === 'agent' ? 10 : 1000;
const arms = [];
for (const nb of builds) {
  const [name, b] = nb.split('=');
  const load = (p) => import(pathToFileURL(`${b}/dist/${p}`).href);
  arms.push({ name, r: await (await load('retrieval/open.js')).openRetriever(index, 'bm25', { threads: 0 }) });
}
const b0 = builds[builds.length - 1].split('=')[1];
const qs =
  shape === 'barexam'
    ? (await import(pathToFileURL(`${b0}/dist/bench/scale-child.js`).href)).scaleQueries(profile, 'barexam', Number(count) + 2, 42)
    : (await import(pathToFileURL(`${b0}/dist/bench/synthetic.js`).href)).syntheticQueries({ count: Number(count) + 2, seed: 42, profile, shape: shape === 'agent' ? 'agent' : 'long' });
for (const a of arms) for (const q of qs) await a.r.search(q, { k });
const sum = (a) => a.reduce((x, y) => x + y, 0);
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
console.log(JSON.stringify({ index, shape, profile, k, queries: Number(count), arms: builds, load1: loadavg()[0] }));
for (let r = 0; r < Number(rounds); r++) {
  const cpu = Object.fromEntries(arms.map((a) => [a.name, []]));
  for (const [i, q] of qs.slice(2).entries()) {
    let key;
    for (let j = 0; j < arms.length; j++) {
      const a = arms[(i + r + j) % arms.length];
      const c = process.cpuUsage();
      const hits = await a.r.search(q, { k });
      const d = process.cpuUsage(c);
      cpu[a.name].push((d.user + d.system) / 1000);
      const h = hits.map((x) => `${x.id}:${x.score}`).join();
      if (key !== undefined && h !== key) throw new Error(`top-k differ: query ${i}, ${a.name}`);
      key = h;
    }
  }
  const ref = arms[0].name;
  const row = { round: r, load1: loadavg()[0] };
  for (const a of arms) {
    row[`${a.name}MeanMs`] = +(sum(cpu[a.name]) / cpu[a.name].length).toFixed(3);
    row[`${a.name}P50Ms`] = +med(cpu[a.name]).toFixed(3);
    if (a.name !== ref) {
      row[`${a.name}/${ref}Mean`] = +(sum(cpu[a.name]) / sum(cpu[ref])).toFixed(3);
      row[`${a.name}/${ref}P50`] = +(med(cpu[a.name]) / med(cpu[ref])).toFixed(3);
    }
  }
  console.log(JSON.stringify(row));
}
process.exit(0);
