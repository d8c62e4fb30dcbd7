import { readFileSync, readdirSync } from 'node:fs';
const dir = process.argv[2];
const f = dir.endsWith(".cpuprofile") ? "" : readdirSync(dir).filter(x=>x.endsWith(".cpuprofile"))[0];
const p = JSON.parse(readFileSync(f ? `${dir}/${f}` : dir));
const byId = new Map(p.nodes.map(n=>[n.id,n]));
const self = new Map();
const dt = p.timeDeltas; let tot=0;
for (let i=0;i<p.samples.length;i++){ const n=byId.get(p.samples[i]); const key=`${n.callFrame.functionName||'(anon)'} ${n.callFrame.url.split('/').slice(-1)[0]}:${n.callFrame.lineNumber}`; self.set(key,(self.get(key)??0)+dt[i]); tot+=dt[i]; }
const rows=[...self].sort((a,b)=>b[1]-a[1]).slice(0,Number(process.argv[3]??25));
for (const [k,v] of rows) console.log((v/1000).toFixed(0).padStart(7),'ms', (100*v/tot).toFixed(1).padStart(5)+'%', k);
console.log('total ms', (tot/1000).toFixed(0));
