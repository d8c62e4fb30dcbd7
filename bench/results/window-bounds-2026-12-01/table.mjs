// node table.mjs count-*.json → the note's table (markdown), from the JSON files, never typed.
import { readFileSync } from 'node:fs';
const q = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const pct = (x) => `${(x * 100).toFixed(2)} %`;
for (const f of process.argv.slice(2)) {
  const j = JSON.parse(readFileSync(f, 'utf8'));
  const rows = j.rows;
  const sumP = rows.reduce((a, r) => a + r.P, 0);
  console.log(`\n${f}: ${j.profile} N ${j.N.toLocaleString('en')}, ${rows.length} queries, P p50 ${q(rows.map((r) => r.P), 0.5).toLocaleString('en')} / p95 ${q(rows.map((r) => r.P), 0.95).toLocaleString('en')}, θ p50 ${q(rows.map((r) => r.theta), 0.5).toFixed(3)}\n`);
  console.log('| window (docs) | postings in windows < final θ: all queries | per query p50 / p95 / max | at the running θ (start of the 16,384-doc block): all queries | per query p50 / p95 / max | queries with any skip (final θ) | window bound ÷ final θ: p50 of the per-query median / p50 of the per-query 1st percentile / least |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const W of j.sizes) {
    const s = rows.map((r) => r.sizes[W]);
    const fin = rows.map((r, i) => s[i].skipFinal / r.P);
    const run = rows.map((r, i) => s[i].skipRun / r.P);
    const sf = s.reduce((a, x) => a + x.skipFinal, 0), sr = s.reduce((a, x) => a + x.skipRun, 0);
    console.log(`| ${W.toLocaleString('en')} | ${pct(sf / sumP)} | ${pct(q(fin, 0.5))} / ${pct(q(fin, 0.95))} / ${pct(Math.max(...fin))} | ${pct(sr / sumP)} | ${pct(q(run, 0.5))} / ${pct(q(run, 0.95))} / ${pct(Math.max(...run))} | ${fin.filter((x) => x > 0).length} | ${q(s.map((x) => x.boundOverThetaP50), 0.5).toFixed(2)} / ${q(s.map((x) => x.boundOverThetaP01), 0.5).toFixed(2)} / ${Math.min(...s.map((x) => x.boundOverThetaMin)).toFixed(2)} |`);
  }
}
// The second table: MaxScore inside each window on the same bounds (final θ), where the JSON has it.
for (const f of process.argv.slice(2)) {
  const j = JSON.parse(readFileSync(f, 'utf8'));
  const rows = j.rows;
  if (rows[0].sizes[j.sizes[0]].nonEssPostings === undefined) continue;
  const sumP = rows.reduce((a, r) => a + r.P, 0);
  console.log(`\n${f}: MaxScore inside each window (final θ; not a whole-window skip)\n`);
  console.log('| window (docs) | postings in non-essential lists: all queries | per query p50 / p95 | candidates per query p50 / p95 | look-ups per query p50 / p95 | walked + look-ups ÷ P: all queries | per query p50 / p95 |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|');
  for (const W of j.sizes) {
    const s = rows.map((r) => r.sizes[W]);
    const ne = rows.map((r, i) => s[i].nonEssPostings / r.P);
    const work = rows.map((r, i) => (r.P - s[i].nonEssPostings + s[i].lookups) / r.P);
    const sne = s.reduce((a, x) => a + x.nonEssPostings, 0), sw = rows.reduce((a, r, i) => a + r.P - s[i].nonEssPostings + s[i].lookups, 0);
    const n = (x) => Math.round(x).toLocaleString('en');
    console.log(`| ${W.toLocaleString('en')} | ${pct(sne / sumP)} | ${pct(q(ne, 0.5))} / ${pct(q(ne, 0.95))} | ${n(q(s.map((x) => x.candidates), 0.5))} / ${n(q(s.map((x) => x.candidates), 0.95))} | ${n(q(s.map((x) => x.lookups), 0.5))} / ${n(q(s.map((x) => x.lookups), 0.95))} | ${pct(sw / sumP)} | ${pct(q(work, 0.5))} / ${pct(q(work, 0.95))} |`);
  }
}
// The third table: the candidates filtered (essential partial + the window's non-essential bound reaches θ), where the JSON has it.
for (const f of process.argv.slice(2)) {
  const j = JSON.parse(readFileSync(f, 'utf8'));
  const rows = j.rows;
  if (rows[0].sizes[j.sizes[0]].filtered === undefined) continue;
  const sumP = rows.reduce((a, r) => a + r.P, 0);
  const n = (x) => Math.round(x).toLocaleString('en');
  console.log(`\n${f}: MaxScore inside each window, candidates filtered (final θ; no per-doc early exit)\n`);
  console.log('| window (docs) | candidates per query p50 / p95 | filtered candidates p50 / p95 | look-ups of the filtered p50 / p95 | essential postings + filtered look-ups ÷ P: all queries | per query p50 / p95 |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const W of j.sizes) {
    const s = rows.map((r) => r.sizes[W]);
    const work = rows.map((r, i) => (r.P - s[i].nonEssPostings + s[i].lookupsFiltered) / r.P);
    const sw = rows.reduce((a, r, i) => a + r.P - s[i].nonEssPostings + s[i].lookupsFiltered, 0);
    console.log(`| ${W.toLocaleString('en')} | ${n(q(s.map((x) => x.candidates), 0.5))} / ${n(q(s.map((x) => x.candidates), 0.95))} | ${n(q(s.map((x) => x.filtered), 0.5))} / ${n(q(s.map((x) => x.filtered), 0.95))} | ${n(q(s.map((x) => x.lookupsFiltered), 0.5))} / ${n(q(s.map((x) => x.lookupsFiltered), 0.95))} | ${pct(sw / sumP)} | ${pct(q(work, 0.5))} / ${pct(q(work, 0.95))} |`);
  }
}
