/**
 * Case triples for 3-ply arguments (Zhang & Ashley 2025, §4.2 and appendix B): a current case c1,
 * a precedent c2 cited for the plaintiff and a counter-example c3 cited for the defendant, in one
 * of three modes:
 *  - arguable: c1 shares a relevant factor with c2 (a pro-plaintiff factor; c2 was won by the
 *    plaintiff) and with c3 (a pro-defendant factor; c3 was won by the defendant);
 *  - mismatched: the same overlaps, but each precedent's outcome is against the side citing it
 *    (c2 won by the defendant, c3 by the plaintiff) — a system should abstain;
 *  - non-arguable: c1 shares no factor at all with c2 nor with c3 — a system should abstain.
 * Complexity k gives each case between k-1 and k+1 factors (the paper used k = 5, n = 90 per mode).
 * Source "synthetic" draws factor sets at random, as the paper did; "casebase" picks real cases
 * from the bundled CATO case base that satisfy the same conditions.
 */
import { errors } from '../../core/errors.js';
import { createRng, deriveSeed, type Rng } from '../../core/rng.js';
import { sortFactorIds, type Side, type TradeSecretModel } from '../../corpora/trade-secret.js';
import { SCENARIO_MODES, type ScenarioMode } from './scenario-modes.js';

export { SCENARIO_MODES, type ScenarioMode };

export interface CurrentCase {
  name?: string;
  factors: string[];
}
export interface Precedent {
  name?: string;
  factors: string[];
  outcome: Side;
}

export interface CaseTriple {
  id: string;
  mode: ScenarioMode;
  c1: CurrentCase;
  c2: Precedent;
  c3: Precedent;
}

export type ScenarioSource = 'synthetic' | 'casebase';

export interface BuildScenarioOptions {
  mode: ScenarioMode;
  n: number;
  seed: number;
  /** Mean number of factors per case; each case gets complexity-1..complexity+1. Default 5 (the paper's). */
  complexity?: number;
  source?: ScenarioSource;
}

export const DEFAULT_COMPLEXITY = 5;

export const intersect = (a: readonly string[], b: readonly string[]): string[] => {
  const s = new Set(b);
  return sortFactorIds(a.filter((x) => s.has(x)));
};

/** Which mode a triple's factors and outcomes actually satisfy ("other" when none). */
export function classifyTriple(t: Pick<CaseTriple, 'c1' | 'c2' | 'c3'>, model: TradeSecretModel): ScenarioMode | 'other' {
  const side = (id: string) => model.byId.get(id)?.side;
  const s2 = intersect(t.c1.factors, t.c2.factors);
  const s3 = intersect(t.c1.factors, t.c3.factors);
  if (s2.length === 0 && s3.length === 0) return t.c2.outcome === 'P' && t.c3.outcome === 'D' ? 'non-arguable' : 'other';
  const relevant = s2.some((f) => side(f) === 'P') && s3.some((f) => side(f) === 'D');
  if (!relevant) return 'other';
  if (t.c2.outcome === 'P' && t.c3.outcome === 'D') return 'arguable';
  if (t.c2.outcome === 'D' && t.c3.outcome === 'P') return 'mismatched';
  return 'other';
}

/** What a good system does with a triple: argue only in the arguable mode. */
export const expectedBehaviour = (mode: ScenarioMode): 'argue' | 'abstain' => (mode === 'arguable' ? 'argue' : 'abstain');

function checkOptions(o: BuildScenarioOptions, factorCount: number): number {
  const k = o.complexity ?? DEFAULT_COMPLEXITY;
  if (!SCENARIO_MODES.includes(o.mode)) throw errors.invalidInput('scenario', `"${o.mode}" is not one of ${SCENARIO_MODES.join(', ')}`);
  if (!Number.isInteger(o.n) || o.n < 1) throw errors.invalidInput('n', `expected a positive integer, got ${o.n}`);
  // Non-arguable triples need c1 and c2 disjoint: (k+1) + (k+1) factors must fit in the factor set.
  if (!Number.isInteger(k) || k < 2 || 2 * (k + 1) > factorCount) {
    throw errors.invalidInput('complexity', `expected an integer from 2 to ${Math.floor(factorCount / 2) - 1}, got ${k}`);
  }
  return k;
}

/** Fill `base` up to `size` with factors drawn from `pool` (never repeating one). */
function fill(rng: Rng, base: string[], pool: readonly string[], size: number): string[] {
  const have = new Set(base);
  const extra = rng.sample(
    pool.filter((f) => !have.has(f)),
    Math.max(0, size - base.length),
  );
  return sortFactorIds([...base, ...extra]);
}

function syntheticTriple(rng: Rng, mode: ScenarioMode, k: number, model: TradeSecretModel): Omit<CaseTriple, 'id'> {
  const all = model.factors.map((f) => f.id);
  const size = () => rng.int(k - 1, k + 1);
  if (mode === 'non-arguable') {
    const c1 = fill(rng, [], all, size());
    const rest = all.filter((f) => !c1.includes(f));
    return {
      mode,
      c1: { factors: c1 },
      c2: { factors: fill(rng, [], rest, size()), outcome: 'P' },
      c3: { factors: fill(rng, [], rest, size()), outcome: 'D' },
    };
  }
  const pro = (s: Side) => model.factors.filter((f) => f.side === s).map((f) => f.id);
  const sharedP = rng.sample(pro('P'), 1)[0];
  const sharedD = rng.sample(pro('D'), 1)[0];
  const c1 = fill(rng, [sharedP, sharedD], all, Math.max(2, size()));
  const c2 = fill(rng, [sharedP], all, size());
  const c3 = fill(rng, [sharedD], all, size());
  const flip = mode === 'mismatched';
  return { mode, c1: { factors: c1 }, c2: { factors: c2, outcome: flip ? 'D' : 'P' }, c3: { factors: c3, outcome: flip ? 'P' : 'D' } };
}

/** Every (c1, c2, c3) of distinct real cases that satisfies the mode. */
function casebaseTriples(mode: ScenarioMode, model: TradeSecretModel): Array<Omit<CaseTriple, 'id'>> {
  const side = (id: string) => model.byId.get(id)?.side;
  const fits = (c1: string[], p: string[], s: Side) => (mode === 'non-arguable' ? intersect(c1, p).length === 0 : intersect(c1, p).some((f) => side(f) === s));
  const want2: Side = mode === 'mismatched' ? 'D' : 'P';
  const want3: Side = mode === 'mismatched' ? 'P' : 'D';
  const out: Array<Omit<CaseTriple, 'id'>> = [];
  for (const c1 of model.cases) {
    const c2s = model.cases.filter((c) => c !== c1 && c.outcome === want2 && fits(c1.factors, c.factors, 'P'));
    const c3s = model.cases.filter((c) => c !== c1 && c.outcome === want3 && fits(c1.factors, c.factors, 'D'));
    for (const c2 of c2s)
      for (const c3 of c3s) {
        if (c3 === c2) continue;
        out.push({
          mode,
          c1: { name: c1.name, factors: c1.factors },
          c2: { name: c2.name, factors: c2.factors, outcome: c2.outcome },
          c3: { name: c3.name, factors: c3.factors, outcome: c3.outcome },
        });
      }
  }
  if (!out.length) throw errors.invalidInput('scenario', `the case base has no ${mode} triple`);
  return out;
}

/** n seeded triples of one mode; ids are "<mode>-001".. and the same seed gives the same triples. */
export function buildScenarios(o: BuildScenarioOptions, model: TradeSecretModel): CaseTriple[] {
  const k = checkOptions(o, model.factors.length);
  const rng = createRng(deriveSeed(o.seed, `threeply/${o.mode}/${o.source ?? 'synthetic'}/${k}`));
  const id = (i: number) => `${o.mode}-${String(i + 1).padStart(3, '0')}`;
  if (o.source === 'casebase') {
    // Distinct real triples in a seeded order. More than the case base holds would repeat some, each
    // copy scored as an independent item (n inflated, intervals narrowed, with no word): refused (helper audit).
    const all = casebaseTriples(o.mode, model);
    if (o.n > all.length)
      throw errors.invalidInput(
        'n',
        `the case base holds ${all.length} distinct ${o.mode} triples; ${o.n} would repeat ${o.n - all.length} of them, each copy counted as another item (a larger n and narrower intervals than the triples support): give ${all.length} or fewer for source casebase`,
      );
    const order = rng.shuffle(all);
    return Array.from({ length: o.n }, (_, i) => ({ id: id(i), ...order[order.length - 1 - i] }));
  }
  return Array.from({ length: o.n }, (_, i) => ({ id: id(i), ...syntheticTriple(rng, o.mode, k, model) }));
}

export { modeOfId } from './scenario-modes.js';
