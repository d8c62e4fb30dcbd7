// The whole-or-split cost model (retrieval/sparse/whole-or-split.ts) from fit-rows.jsonl: CPU ms =
// a + b·P + c·N (P = the query's postings, N = the index's passages) by median regression (iteratively reweighted least squares on
// |residual|), once over the in-process rows (threads 0: `whole`) and once over the two-thread rows
// (`split`, both threads' CPU). Prints fit.json: the coefficients, per-index medians of each arm and
// of the model's residuals, and how many queries the model scores whole (hand-off 1 ms).
//   node fit.mjs fit-rows.jsonl > fit.json
import { readFileSync } from 'node:fs';

const runs = readFileSync(process.argv[2], 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
// Median regression of cpu on (1, P/1e6, N/1e6): IRLS, weights 1/|residual|.
function l1(rows) {
  const xs = rows.map((r) => [1, r.P / 1e6, r.N / 1e6]);
  let w = rows.map(() => 1);
  let c = [0, 0, 0];
  for (let it = 0; it < 200; it++) {
    const A = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
    const y = [0, 0, 0];
    rows.forEach((r, i) => {
      for (let j = 0; j < 3; j++) {
        y[j] += w[i] * xs[i][j] * r.cpu;
        for (let k = 0; k < 3; k++) A[j][k] += w[i] * xs[i][j] * xs[i][k];
      }
    });
    c = solve3(A, y);
    w = rows.map((r, i) => 1 / Math.max(1e-3, Math.abs(r.cpu - dot(c, xs[i]))));
  }
  return { a: c[0], bPerMillionPostings: c[1], cPerMillionDocs: c[2] };
}
const dot = (c, x) => c[0] * x[0] + c[1] * x[1] + c[2] * x[2];
function solve3(A, y) {
  const m = A.map((row, i) => [...row, y[i]]);
  for (let i = 0; i < 3; i++) {
    let p = i;
    for (let r = i + 1; r < 3; r++) if (Math.abs(m[r][i]) > Math.abs(m[p][i])) p = r;
    [m[i], m[p]] = [m[p], m[i]];
    for (let r = 0; r < 3; r++) if (r !== i) {
      const f = m[r][i] / m[i][i];
      for (let k = i; k < 4; k++) m[r][k] -= f * m[i][k];
    }
  }
  return m.map((row, i) => row[3] / row[i]);
}
const out = { handoffMs: 1, arms: {}, byIndex: [] };
for (const [name, t] of [['whole', 0], ['split', 2]]) {
  const rows = runs.filter((r) => r.threads === t).flatMap((r) => r.rows.map((x) => ({ ...x, N: r.N })));
  out.arms[name] = { ...l1(rows), rows: rows.length };
}
const { whole, split } = out.arms;
const cost = (m, P, N) => m.a + (m.bPerMillionPostings * P) / 1e6 + (m.cPerMillionDocs * N) / 1e6;

for (const r of runs) {
  const m = r.threads === 0 ? whole : split;
  out.byIndex.push({
    index: r.index,
    N: r.N,
    profile: r.profile,
    threads: r.threads,
    uptimeBefore: r.uptimeBefore,
    uptimeAfter: r.uptimeAfter,
    medianP: median(r.rows.map((x) => x.P)),
    cpuP50: median(r.rows.map((x) => x.cpu)),
    predictedAtMedianP: cost(m, median(r.rows.map((x) => x.P)), r.N),
    medianAbsResidual: median(r.rows.map((x) => Math.abs(x.cpu - cost(m, x.P, r.N)))),
    wholeByModel: r.rows.filter((x) => cost(whole, x.P, r.N) <= cost(split, x.P, r.N) / 2 + out.handoffMs).length,
    queries: r.rows.length,
  });
}
console.log(JSON.stringify(out, null, 1));
