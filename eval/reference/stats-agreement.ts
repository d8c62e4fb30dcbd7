/**
 * Reference agreement of lexcase's statistics (eval/stats/, eval/bootstrap.ts, eval/wilson.ts,
 * eval/metrics/) with implementations lexcase did not write: scipy and numpy, in a python3 child
 * (./stats-agreement.py). Seeded, realistic inputs — Bar Exam-sized (n = 1,195) 0/1 outcome
 * vectors at 25–90% accuracy, paired vectors with 0–30% discordant items, 3–5-class label vectors
 * with failed items, per-topic reciprocal ranks — go through lexcase's own functions and through
 * the reference; the table gives the largest absolute difference per statistic.
 *
 * Bootstraps are checked twice: on the SAME resamples (the indices lexcase's seeded generator draws,
 * core/rng.ts, handed to numpy: numpy recomputes each resample's statistic and takes its type-7
 * percentiles), which must agree to float rounding; and against scipy.stats.bootstrap
 * (method='percentile', its own 20,000 resamples), which agrees within Monte-Carlo error only.
 *
 * Run: `node dist/eval/reference/stats-agreement.js` after `npm run build` (needs python3 with numpy
 * and scipy); eval/reference/stats-agreement.test.ts runs it and skips, saying why, without them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRng } from '../../core/rng.js';
import { canonicalById } from '../bootstrap.js';
import { classificationReport } from '../metrics/classification.js';
import { macroScores } from '../metrics/macro.js';
import { LEVEL, mcnemarExact, meanInterval, pairedDifference, proportionInterval, RESAMPLES, SEED, signFlipTest } from '../stats/index.js';
import { PERMUTATIONS } from '../stats/settings.js';

const fromTs = fileURLToPath(import.meta.url).endsWith('.ts');
/** The python3 child (kept beside this file in the source tree; dist/ holds no .py). */
export const AGREEMENT_DRIVER = fileURLToPath(new URL(fromTs ? './stats-agreement.py' : '../../../eval/reference/stats-agreement.py', import.meta.url));

export interface AgreementRow {
  statistic: string;
  lexcase: string;
  reference: string;
  cases: number;
  maxAbsDiff: number;
  tolerance: number;
  agree: boolean;
}

/** Whether python3 with numpy and scipy is here; `reason` says what is missing. */
export function pythonReference(python = 'python3'): { ok: true } | { ok: false; reason: string } {
  const r = spawnSync(python, ['-c', 'import numpy, scipy.stats; print(numpy.__version__, scipy.__version__)'], { encoding: 'utf8' });
  if (r.error) return { ok: false, reason: `${python} not found (${r.error.message})` };
  if (r.status !== 0) return { ok: false, reason: `${python} has no numpy/scipy: ${(r.stderr || '').trim().split('\n').at(-1)}` };
  return { ok: true };
}

/** The resample indices bootstrapStatisticCi draws for n items (eval/bootstrap.ts: createRng(seed), rng.int(0, n − 1) per item per resample). */
function resampleIndices(n: number, iterations: number, seed: number): Uint16Array {
  if (n > 65535) throw new RangeError('resampleIndices: n ≤ 65535');
  const rng = createRng(seed);
  const out = new Uint16Array(n * iterations);
  for (let b = 0; b < iterations; b++) for (let i = 0; i < n; i++) out[b * n + i] = rng.int(0, n - 1);
  return out;
}

/** The random signs signFlipTest draws above EXACT_FLIP_MAX (eval/stats/sign-flip.ts): 1 keeps a difference, 0 flips it. */
function flipSigns(m: number, permutations: number, seed: number): Uint8Array {
  const rng = createRng(seed);
  const out = new Uint8Array(m * permutations);
  for (let it = 0; it < permutations; it++) for (let i = 0; i < m; i++) out[it * m + i] = rng.int(0, 1);
  return out;
}

const binaryVector = (rng: ReturnType<typeof createRng>, n: number, acc: number): number[] => Array.from({ length: n }, () => (rng.next() < acc ? 1 : 0));

/** Per-topic reciprocal ranks: a share of topics with no gold in the top 10 (0), the rest 1/rank with rank skewed to the top. */
function reciprocalRanks(rng: ReturnType<typeof createRng>, n: number, miss: number): number[] {
  return Array.from({ length: n }, () => (rng.next() < miss ? 0 : 1 / (1 + Math.floor(10 * rng.next() ** 2))));
}

/** Runs every statistic through lexcase and the python reference; `workDir`: where the interchange files go (a temp dir by default). */
export async function statsAgreement(o: { python?: string; seed?: number } = {}): Promise<AgreementRow[]> {
  const rng = createRng(o.seed ?? 20261130);
  const B = RESAMPLES;
  const seed = SEED;
  const dir = await mkdtemp(join(tmpdir(), 'lexcase-stats-agreement-'));
  const blobs: { file: string; data: Uint8Array | Uint16Array | Float64Array }[] = [];
  const blob = (name: string, data: Uint8Array | Uint16Array | Float64Array) => {
    const file = join(dir, name);
    blobs.push({ file, data });
    return file;
  };
  try {
    // 1. Wilson: every k of small n, and Bar Exam-sized vectors at 25–90% accuracy
    const wilson: { k: number; n: number; lo: number | null; hi: number | null }[] = [];
    for (let n = 1; n <= 30; n++) for (let k = 0; k <= n; k++) wilson.push({ k, n, ...loHi(proportionInterval(k, n)) });
    for (let v = 0; v < 200; v++) {
      const x = binaryVector(rng, 1195, 0.25 + (0.65 * v) / 199);
      const k = x.reduce((s, y) => s + y, 0);
      wilson.push({ k, n: 1195, ...loHi(proportionInterval(k, 1195)) });
    }
    for (const k of [0, 1, 2, 1193, 1194, 1195]) wilson.push({ k, n: 1195, ...loHi(proportionInterval(k, 1195)) });

    // 2. Paired 0/1 vectors (compare's accuracy): McNemar p, and the paired bootstrap on identical resamples
    const mcnemar: { aOnly: number; bOnly: number; p: number }[] = [];
    for (let b = 0; b <= 40; b++) for (let c = 0; c <= 40; c++) mcnemar.push({ aOnly: b, bOnly: c, p: mcnemarExact(b, c) });
    const paired: { a: number[]; b: number[]; lo: number | null; hi: number | null; p: number | null; estimate: number; idx: string; n: number }[] = [];
    for (let v = 0; v < 40; v++) {
      const n = 1195;
      const a = binaryVector(rng, n, 0.25 + (0.65 * v) / 39);
      const disc = (0.3 * v) / 39;
      const b = a.map((x) => (rng.next() < disc ? 1 - x : x));
      const d = pairedDifference(a, b);
      mcnemar.push({ aOnly: d.aOnly, bOnly: d.bOnly, p: d.p! });
      // the identical resamples are shipped for a few vectors (9.6 MB each); the rest are checked against scipy only
      const idx = v % 10 === 3 ? blob(`paired-${v}.u16`, resampleIndices(n, B, seed)) : '';
      paired.push({ a, b, lo: d.lo, hi: d.hi, p: d.p, estimate: d.estimate, idx, n });
    }

    // 3. Graded paired values (compare's MRR): sign-flip p, exact up to 20 differing items, else seeded flips
    const signFlip: { diffs: number[]; p: number; exact: boolean; signs: string }[] = [];
    for (let v = 0; v < 60; v++) {
      const n = v < 40 ? 30 : 400;
      const a = reciprocalRanks(rng, n, 0.3);
      const changed = v < 40 ? 1 + (v % 20) : Math.round(n * (0.02 + (0.28 * (v - 40)) / 19));
      const b = a.slice();
      for (const i of rng.sample([...a.keys()], changed)) b[i] = reciprocalRanks(rng, 1, 0.3)[0];
      const diffs = b.map((x, i) => x - a[i]);
      const r = signFlipTest(diffs, { seed });
      const nz = diffs.filter((x) => x !== 0).sort((x, y) => x - y);
      signFlip.push({ diffs, p: r.p, exact: r.exact, signs: r.exact ? '' : blob(`signs-${v}.u8`, flipSigns(nz.length, PERMUTATIONS, seed)) });
    }

    // 4. Means of graded values (eval retrieval's MRR@10): percentile bootstrap on identical resamples
    const means: { values: number[]; lo: number | null; hi: number | null; estimate: number; idx: string }[] = [];
    for (const [n, miss] of [
      [1195, 0.2],
      [1195, 0.6],
      [300, 0.4],
      [50, 0.5],
      [10, 0.3],
    ] as const) {
      const values = reciprocalRanks(rng, n, miss);
      const iv = meanInterval(values);
      means.push({ values, ...loHi(iv), estimate: iv.estimate, idx: blob(`mean-${n}-${miss}.u16`, resampleIndices(n, B, seed)) });
    }

    // 5. Macro-F1 / precision / recall and micro-F1 (3–5 labels, some failed items) and the macro-F1 bootstrap
    const macro: {
      labels: string[];
      preds: (string | null)[];
      golds: string[];
      report: { macroF1: number; macroPrecision: number; macroRecall: number; microF1: number };
      ci?: { lo: number | null; hi: number | null; idx: string; stats: string };
    }[] = [];
    for (let v = 0; v < 60; v++) {
      const L = 3 + (v % 3);
      const labels = 'ABCDE'.slice(0, L).split('');
      const n = v < 57 ? 40 + 20 * v : 1195;
      const acc = 0.25 + (0.65 * (v % 20)) / 19;
      const fail = (v % 4) * 0.02;
      // a skewed gold distribution; one label never gold in some vectors (zero support)
      const golds = Array.from({ length: n }, () => labels[Math.min(L - 1 - (v % 5 === 0 ? 1 : 0), Math.floor(L * rng.next() ** 1.3))]);
      const preds = golds.map((g) => (rng.next() < fail ? null : rng.next() < acc ? g : labels[Math.floor(L * rng.next())]));
      const rep = classificationReport(preds, golds, labels);
      const entry: (typeof macro)[number] = {
        labels,
        preds,
        golds,
        report: { macroF1: rep.macroF1, macroPrecision: rep.macroPrecision, macroRecall: rep.macroRecall, microF1: rep.microF1 },
      };
      if (v >= 57) {
        // records listed in a shuffled order: macroScores resamples them in id order (canonicalById), as the harness does
        const records = rng.shuffle(golds.map((gold, i) => ({ id: `q${String(i).padStart(4, '0')}`, gold, prediction: preds[i] })));
        const rs = canonicalById(records);
        const f1 = macroScores(records, { labels }).f1;
        // lexcase's own statistic on each of its resamples: the percentile step alone is then compared exactly
        const idx = resampleIndices(rs.length, B, seed);
        const stats = new Float64Array(B);
        const rp = rs.map((r) => r.prediction);
        const rg = rs.map((r) => r.gold);
        for (let b = 0; b < B; b++) {
          const p: (string | null)[] = [];
          const g: string[] = [];
          for (let i = 0; i < rs.length; i++) {
            p.push(rp[idx[b * rs.length + i]]);
            g.push(rg[idx[b * rs.length + i]]);
          }
          stats[b] = classificationReport(p, g, labels).macroF1;
        }
        entry.preds = rp;
        entry.golds = rg;
        entry.ci = { ...loHi(f1), idx: blob(`macro-${v}.u16`, idx), stats: blob(`macro-${v}.f64`, stats) };
      }
      macro.push(entry);
    }

    for (const b of blobs) await writeFile(b.file, new Uint8Array(b.data.buffer, b.data.byteOffset, b.data.byteLength));
    const spec = join(dir, 'spec.json');
    await writeFile(spec, JSON.stringify({ level: LEVEL, iterations: B, permutations: PERMUTATIONS, wilson, mcnemar, paired, signFlip, means, macro }));
    const out = join(dir, 'reference.json');
    await runPython(o.python ?? 'python3', [AGREEMENT_DRIVER, spec, out]);
    return JSON.parse(await readFile(out, 'utf8')) as AgreementRow[];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const loHi = (iv: { lo: number | null; hi: number | null }) => ({ lo: iv.lo, hi: iv.hi });

function runPython(python: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
      if (process.env.LEXCASE_AGREEMENT_TRACE) process.stderr.write(d);
    });
    child.on('error', (e) => reject(new Error(`${python}: ${e.message}`)));
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`stats-agreement.py exit ${code}: ${err.trim().split('\n').slice(-8).join('\n')}`)),
    );
  });
}

const fmt = (x: number) => (x === 0 ? '0' : x.toExponential(1));

/** The agreement table as markdown. */
export function renderAgreement(rows: readonly AgreementRow[]): string {
  const lines = ['| statistic | lexcase | reference | cases | max abs diff | tolerance | agree |', '|---|---|---|---:|---:|---:|---|'];
  const cell = (t: string) => t.replaceAll('|', '\\|');
  for (const r of rows)
    lines.push(
      `| ${cell(r.statistic)} | ${cell(r.lexcase)} | ${cell(r.reference)} | ${r.cases} | ${fmt(r.maxAbsDiff)} | ${fmt(r.tolerance)} | ${r.agree ? 'yes' : '**NO**'} |`,
    );
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const have = pythonReference();
  if (!have.ok) {
    process.stderr.write(`stats agreement skipped: ${have.reason}\n`);
    process.exit(2);
  }
  const rows = await statsAgreement();
  process.stdout.write(`${renderAgreement(rows)}\n`);
  if (rows.some((r) => !r.agree)) process.exit(1);
}
