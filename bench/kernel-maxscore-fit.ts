/**
 * The gate of sparseCandidates (sparse-gate.ts `sparseGateModel`, re-exported by blocked-taat.ts), fitted on the per-query CPU
 * that bench/kernel-maxscore-ab.ts records, and the note's table printed from its JSON files:
 *
 *   node dist/bench/kernel-maxscore-fit.js fit FILE.json...     # least squares → the model's constants
 *   node dist/bench/kernel-maxscore-fit.js table FILE.json...   # the A/B table (markdown)
 *
 * Fit: per query the median CPU over the passes of 'auto' (no gate) and of sparseCandidates
 * forced, over every query where sparseCandidates could prune (J ≤ the first dense list at the
 * gate), from every file together: auto = a0 + perWalked·P, sparse = s0 + perEssential·E +
 * perLookup·E·L (ns; P, E, L as sparseGateModel names them), the intercepts divided by the docs
 * left at the gate (autoPerDoc, sparsePerDoc). Prints the constants, and per file how often the
 * fitted gate picks the arm that measured faster and the p50 of the CPU it would get.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Gate {
  docs: number;
  essential: number;
  compactPostings: number;
  lookupLists: number;
  J: number;
  eligible: number;
  taken: number;
}
interface Q {
  i: number;
  cpu: { auto: number[]; gated: number[]; sparse: number[] };
  gate: Gate;
  gatedTaken: number;
}
interface Ab {
  profile: string;
  auto: { cpu: { p50Ms: number; p95Ms: number } };
  gated: { cpu: { p50Ms: number; p95Ms: number } };
  sparse: { cpu: { p50Ms: number; p95Ms: number } };
  cpuRatioGatedToAuto: { p50: number; p95: number };
  cpuRatioSparseToAuto: { p50: number; p95: number };
  medianPairCpuRatioGated: number;
  gatedTakenQueries: number;
  queries: number;
  passes: number;
  loadAvgAtStart: number[];
  loadAvgAtEnd: number[];
  perQuery: Q[];
}

const median = (a: number[]) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Ordinary least squares (normal equations, Gaussian elimination): y ≈ X·β. */
export function leastSquares(X: number[][], y: number[]): number[] {
  const p = X[0].length;
  const A = Array.from({ length: p }, () => new Array<number>(p + 1).fill(0));
  for (let r = 0; r < X.length; r++)
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) A[i][j] += X[r][i] * X[r][j];
      A[i][p] += X[r][i] * y[r];
    }
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let r = c + 1; r < p; r++) if (Math.abs(A[r][c]) > Math.abs(A[piv][c])) piv = r;
    [A[c], A[piv]] = [A[piv], A[c]];
    for (let r = 0; r < p; r++) {
      if (r === c) continue;
      const f = A[r][c] / A[c][c];
      for (let j = c; j <= p; j++) A[r][j] -= f * A[c][j];
    }
  }
  return A.map((row, i) => row[p] / A[i][i]);
}

export function fitGate(files: Ab[]) {
  const rows = files.flatMap((f) => f.perQuery.filter((q) => q.gate.eligible === 1));
  const ns = (a: number[]) => median(a) * 1e6;
  const [a0, perWalked] = leastSquares(
    rows.map((q) => [1, q.gate.compactPostings]),
    rows.map((q) => ns(q.cpu.auto)),
  );
  const [s0, perEssential, perLookup] = leastSquares(
    rows.map((q) => [1, q.gate.essential, q.gate.essential * q.gate.lookupLists]),
    rows.map((q) => ns(q.cpu.sparse)),
  );
  const docs = median(rows.map((q) => q.gate.docs));
  const sig = (x: number) => Number(x.toPrecision(4));
  return {
    rows: rows.length,
    docs,
    model: { sparsePerDoc: sig(s0 / docs), perEssential: sig(perEssential), perLookup: sig(perLookup), autoPerDoc: sig(a0 / docs), perWalked: sig(perWalked) },
  };
}

function takes(m: ReturnType<typeof fitGate>['model'], g: Gate): boolean {
  return (
    g.eligible === 1 &&
    m.sparsePerDoc * g.docs + m.perEssential * g.essential + m.perLookup * g.essential * g.lookupLists < m.autoPerDoc * g.docs + m.perWalked * g.compactPostings
  );
}

function main(argv: string[]): void {
  const [cmd, ...paths] = argv;
  const files = paths.map((p) => ({ name: basename(p), ab: JSON.parse(readFileSync(resolve(p), 'utf8')) as Ab }));
  if (cmd === 'fit') {
    const fit = fitGate(files.map((f) => f.ab));
    process.stdout.write(`${JSON.stringify(fit)}\n`);
    for (const { name, ab } of files) {
      let right = 0;
      let taken = 0;
      const chosen: number[] = [];
      for (const q of ab.perQuery) {
        const t = takes(fit.model, q.gate);
        if (t) taken++;
        const a = median(q.cpu.auto);
        const s = median(q.cpu.sparse);
        if (t === s < a) right++;
        chosen.push(t ? s : a);
      }
      const a50 = median(ab.perQuery.map((q) => median(q.cpu.auto)));
      process.stdout.write(
        `${name}: ${ab.perQuery.length} queries, eligible ${ab.perQuery.filter((q) => q.gate.eligible === 1).length}, the fitted gate takes sparse on ${taken}, picks the faster arm on ${right}; median of per-query medians: auto ${a50.toFixed(2)} ms, as gated ${median(chosen).toFixed(2)} ms\n`,
      );
    }
  } else if (cmd === 'table') {
    const f2 = (x: number) => x.toFixed(2);
    const out = [
      "| corpus | file | queries × passes | 'auto' CPU p50 / p95 ms | gated 'auto' CPU p50 / p95 ms | sparseCandidates CPU p50 / p95 ms | gated ÷ auto p50 / p95 | sparse ÷ auto p50 / p95 | median per-query gated ÷ auto | queries the gate sent to sparse | load start → end |",
      '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ];
    for (const { name, ab } of files)
      out.push(
        `| ${ab.profile} | ${name} | ${ab.queries} × ${ab.passes} | ${f2(ab.auto.cpu.p50Ms)} / ${f2(ab.auto.cpu.p95Ms)} | ${f2(ab.gated.cpu.p50Ms)} / ${f2(ab.gated.cpu.p95Ms)} | ${f2(ab.sparse.cpu.p50Ms)} / ${f2(ab.sparse.cpu.p95Ms)} | **${f2(ab.cpuRatioGatedToAuto.p50)}** / ${f2(ab.cpuRatioGatedToAuto.p95)} | ${f2(ab.cpuRatioSparseToAuto.p50)} / ${f2(ab.cpuRatioSparseToAuto.p95)} | ${f2(ab.medianPairCpuRatioGated)} | ${ab.gatedTakenQueries} of ${ab.queries} | ${ab.loadAvgAtStart[0].toFixed(1)} → ${ab.loadAvgAtEnd[0].toFixed(1)} |`,
      );
    process.stdout.write(`${out.join('\n')}\n`);
  } else throw new Error(`kernel-maxscore-fit: expected 'fit' or 'table', got ${cmd}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) main(process.argv.slice(2));
