/**
 * compareRuns(a, b): paired bootstrap over the item ids both runs share — accuracy difference
 * (A − B) with a 95% CI and a two-sided p-value, the 2×2 agreement table, and the same for every
 * boolean per-item metric both runs report (e.g. CASE evidence recall).
 */
import { pairedBootstrap, type DiffCi } from '../bootstrap.js';
import { errors } from '../../core/errors.js';
import { pct, table } from './format.js';
import { readRun } from './read-run.js';
import type { RunData } from './types.js';

export interface RunSide {
  dir: string;
  system?: string;
  n: number;
  /** Accuracy on the shared items. */
  accuracy: number;
}

export interface Comparison {
  a: RunSide;
  b: RunSide;
  shared: number;
  onlyA: number;
  onlyB: number;
  accuracy: DiffCi;
  /** Items right in both / only A / only B / neither. */
  agreement: { both: number; onlyA: number; onlyB: number; neither: number };
  metrics: Record<string, DiffCi & { a: number; b: number }>;
  /** Config fields whose values differ between the runs: field → [A, B]. */
  configDiff: Record<string, [unknown, unknown]>;
}

const show = (v: unknown) => (v === undefined ? '–' : typeof v === 'string' ? v : JSON.stringify(v));

/** Top-level config fields that differ (run dirs and paths aside, which always do). */
export function configDiff(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (/^(runDir|run-dir|out)$/i.test(k)) continue;
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) out[k] = [a[k], b[k]];
  }
  return out;
}

const sys = (r: RunData) => (typeof r.config.config.system === 'string' ? r.config.config.system : undefined);

export function compareRunData(A: RunData, B: RunData, opts: { iterations?: number; seed?: number } = {}): Comparison {
  const bById = new Map(B.results.map((r) => [r.id, r]));
  const pairs = A.results.filter((r) => bById.has(r.id)).map((r) => [r, bById.get(r.id)!] as const);
  if (pairs.length === 0) throw errors.runInvalid(`${A.dir} vs ${B.dir}`, 'the two runs share no item ids; nothing to compare');
  const bo = { iterations: opts.iterations ?? 10000, seed: opts.seed ?? 13 };
  const a: number[] = pairs.map(([x]) => (x.correct ? 1 : 0));
  const b: number[] = pairs.map(([, y]) => (y.correct ? 1 : 0));
  const agreement = { both: 0, onlyA: 0, onlyB: 0, neither: 0 };
  a.forEach((x, i) => {
    if (x && b[i]) agreement.both++;
    else if (x) agreement.onlyA++;
    else if (b[i]) agreement.onlyB++;
    else agreement.neither++;
  });
  const metrics: Comparison['metrics'] = {};
  const keys = new Set(pairs.flatMap(([x]) => Object.keys(x.metrics ?? {})));
  for (const k of [...keys].sort()) {
    const both = pairs.filter(([x, y]) => typeof x.metrics?.[k] === 'boolean' && typeof y.metrics?.[k] === 'boolean');
    if (both.length === 0) continue;
    const ma: number[] = both.map(([x]) => (x.metrics![k] ? 1 : 0));
    const mb: number[] = both.map(([, y]) => (y.metrics![k] ? 1 : 0));
    const d = pairedBootstrap(ma, mb, bo);
    metrics[k] = { ...d, a: ma.reduce((s, v) => s + v, 0) / ma.length, b: mb.reduce((s, v) => s + v, 0) / mb.length };
  }
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  return {
    a: { dir: A.dir, system: sys(A), n: A.results.length, accuracy: mean(a) },
    b: { dir: B.dir, system: sys(B), n: B.results.length, accuracy: mean(b) },
    shared: pairs.length,
    onlyA: A.results.length - pairs.length,
    onlyB: B.results.length - pairs.length,
    accuracy: pairedBootstrap(a, b, bo),
    agreement,
    metrics,
    configDiff: { ...configDiff(A.config.config, B.config.config), ...(A.config.seed !== B.config.seed ? { seed: [A.config.seed, B.config.seed] as [unknown, unknown] } : {}) },
  };
}

export async function compareRuns(dirA: string, dirB: string, opts: { iterations?: number; seed?: number } = {}): Promise<Comparison> {
  const [A, B] = await Promise.all([readRun(dirA, { traces: false }), readRun(dirB, { traces: false })]);
  return compareRunData(A, B, opts);
}

const pp = (d: number) => `${d >= 0 ? '+' : ''}${(d * 100).toFixed(1)} pp`;
const pText = (p: number) => (p < 0.001 ? '< 0.001' : p.toFixed(3));

export function formatComparison(c: Comparison): string {
  const name = (s: RunSide, l: string) => `${l}: ${s.system ?? ''} \`${s.dir}\``.replace(':  ', ': ');
  const rows: (string | number)[][] = [['accuracy', pct(c.a.accuracy), pct(c.b.accuracy), pp(c.accuracy.estimate), `[${pp(c.accuracy.lo)}, ${pp(c.accuracy.hi)}]`, pText(c.accuracy.p)]];
  for (const [k, m] of Object.entries(c.metrics))
    rows.push([k, pct(m.a), pct(m.b), pp(m.estimate), `[${pp(m.lo)}, ${pp(m.hi)}]`, pText(m.p)]);
  return [
    `# Paired comparison (A − B) on ${c.shared} shared items`,
    '',
    `- ${name(c.a, 'A')}`,
    `- ${name(c.b, 'B')}`,
    ...(Object.keys(c.configDiff).length ? [`- config differences: ${Object.entries(c.configDiff).map(([k, [x, y]]) => `${k}: ${show(x)} vs ${show(y)}`).join('; ')}`] : []),
    ...(c.onlyA || c.onlyB ? [`- not compared: ${c.onlyA} items only in A, ${c.onlyB} only in B`] : []),
    '',
    table(['metric', 'A', 'B', 'A − B', '95% CI', 'p'], rows),
    '',
    `Both right ${c.agreement.both}, only A ${c.agreement.onlyA}, only B ${c.agreement.onlyB}, neither ${c.agreement.neither}. Paired bootstrap, ${c.accuracy.iterations} resamples, seed ${c.accuracy.seed}.`,
  ].join('\n');
}
