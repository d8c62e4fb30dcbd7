/**
 * The paper's three measures (Zhang & Ashley 2025, §4.4), computed from the factors an evaluator
 * extracted per case (c1, c2, c3) and the triples' ground-truth factor sets:
 *  - hallucination accuracy  Acc_H = 1 − N_h / N_gt, N_h = Σ_c |F_ext,c \ F_gt,c|, N_gt = Σ_c |F_gt,c|;
 *  - factor utilization recall  Rec_U = N_util / N_gt, N_util = Σ_c |F_ext,c ∩ F_gt,c| (0 when abstained);
 *  - successful abstention ratio  N_sa / N_ta over triples designed for abstention.
 * Sums are pooled over a scenario's triples (micro average), exactly as the formulas are written;
 * per-triple values are kept too so the common report can bootstrap them.
 */
import { RECORDED_READINGS } from '../../core/recorded-readings.js';
import type { TradeSecretModel } from '../../corpora/trade-secret.js';
import { expectedBehaviour, SCENARIO_MODES, type CaseTriple, type ScenarioMode } from './scenarios.js';

export interface ExtractedFactors {
  c1: string[];
  c2: string[];
  c3: string[];
}

export interface TripleScore {
  /** Hallucinated factor mentions (extracted for a case but not among its factors). */
  nH: number;
  /** Ground-truth factors over c1, c2, c3. */
  nGt: number;
  /** Ground-truth factors the argument used. */
  nUtil: number;
  abstained: boolean;
}

const CASES = ['c1', 'c2', 'c3'] as const;

/**
 * How a run reads the Factor Distiller's factor strings, recorded in its config.json
 * (`factorMentionReading`): every factor id a string names counts, so "F4 Agreed-not-to-disclose (P),
 * F6 Security-measures (P)" (a prompt-mode evaluator listing a case's factors in one string) is F4 and
 * F6. A lexcase before 2026-12-01 read such a string as its first id alone (F4): the other factors were
 * neither used (Rec_U) nor, when the case lacks them, hallucinated (Acc_H); a run dir it started resumes
 * with a warning naming the field (eval/resume-unrecorded.ts); so does one whose lexcase (2026-12-01)
 * read a bare factor name beside an id ("F4 …, Security-measures (P)") as F4 alone.
 */
export const FACTOR_MENTION_READING = RECORDED_READINGS.factorMentionReading.current;

const FACTOR_ID = /\b(?:F|Factor)\s*0*(\d{1,2})\b/gi;
const NAME_SEPARATOR = /\s*(?:[,;/&]|\s+and\s+)\s*/i;
/** A string that names no factor at all: empty, or a placeholder for none. */
const NO_FACTOR = /^\s*["'*_`(\[]*\s*(?:|none|n\/?a|nil|null|no factors?|-+|–|—)\s*["'*_`)\].]*\s*$/i;

function factorByName(name: string, model: TradeSecretModel): string | undefined {
  const key = name
    .trim()
    .toLowerCase()
    .replace(/\s*\([pd]\)\s*$/, '')
    .replace(/\s+/g, '-');
  return model.factors.find((f) => f.name.toLowerCase() === key)?.id;
}

/**
 * The factor ids an evaluator's factor string names ("F6 Security-measures (P)", "f6",
 * "Security-measures"; "F4 …, F6 …" names two: FACTOR_MENTION_READING); a string naming no known
 * factor is returned as written (it counts as hallucinated).
 */
export function factorMentionIds(mention: string, model: TradeSecretModel): string[] {
  // a placeholder for no factor ("", "None", "N/A", "-"), as a prompt-mode evaluator writes an empty list: no factor,
  // not a hallucinated one (before 2026-12-05 counted in N_h)
  if (NO_FACTOR.test(mention)) return [];
  const ids = [...mention.matchAll(FACTOR_ID)].map((m) => `F${Number(m[1])}`);
  const parts = mention.split(NAME_SEPARATOR).filter((p) => p.trim());
  if (ids.length) {
    // a bare factor name beside an id ("F4 …, Security-measures (P)"): before 2026-12-01 read as F4 alone
    const bare = parts.filter((p) => !new RegExp(FACTOR_ID.source, 'i').test(p)).map((p) => factorByName(p, model));
    return [...new Set(bare.every((id) => id !== undefined) ? [...ids, ...(bare as string[])] : ids)];
  }
  const whole = factorByName(mention, model);
  if (whole) return [whole];
  const named = parts.map((p) => factorByName(p, model));
  return parts.length > 1 && named.every((id) => id !== undefined) ? [...new Set(named as string[])] : [mention.trim()];
}

/**
 * Score one triple from the factors extracted from its argued plies (`extracted`; null when no ply
 * was argued: N_h = 0 and N_util = 0). `abstained`: the system output TERMINATE for a ply (default:
 * nothing was argued); the plies argued before a TERMINATE are still scored.
 */
export function scoreTriple(
  triple: Pick<CaseTriple, 'c1' | 'c2' | 'c3'>,
  extracted: ExtractedFactors | null,
  model: TradeSecretModel,
  abstained = extracted === null,
): TripleScore {
  let nH = 0;
  let nUtil = 0;
  let nGt = 0;
  for (const c of CASES) {
    const gt = new Set(triple[c].factors);
    nGt += gt.size;
    if (!extracted) continue;
    const ext = new Set(extracted[c].flatMap((m) => factorMentionIds(m, model)));
    for (const f of ext) {
      if (gt.has(f)) nUtil++;
      else nH++;
    }
  }
  return { nH, nGt, nUtil, abstained };
}

export const hallucinationAccuracy = (s: Pick<TripleScore, 'nH' | 'nGt'>): number => (s.nGt ? 1 - s.nH / s.nGt : 1);
export const utilizationRecall = (s: Pick<TripleScore, 'nUtil' | 'nGt'>): number => (s.nGt ? s.nUtil / s.nGt : 0);

export interface ScenarioSummary {
  mode: ScenarioMode;
  n: number;
  /** Pooled Acc_H in [0, 1] (may be negative if an argument invents more factors than the triple has). */
  hallucinationAccuracy: number;
  /** Pooled Rec_U in [0, 1]. */
  factorUtilizationRecall: number;
  /** Triples the system abstained on. */
  abstained: number;
  /** N_sa / N_ta for modes designed for abstention; for "arguable", the share of wrongful abstentions. */
  abstentionRatio: number;
  /** True when abstaining is the right answer in this mode. */
  abstentionExpected: boolean;
}

export interface ScoredTriple extends TripleScore {
  mode: ScenarioMode;
}

/** Per-mode summaries (modes with no triple are left out), in the paper's order. */
export function summarizeByScenario(scores: readonly ScoredTriple[]): ScenarioSummary[] {
  return SCENARIO_MODES.flatMap((mode) => {
    const s = scores.filter((x) => x.mode === mode);
    if (!s.length) return [];
    const sum = (f: (x: ScoredTriple) => number) => s.reduce((a, x) => a + f(x), 0);
    const tot = { nH: sum((x) => x.nH), nGt: sum((x) => x.nGt), nUtil: sum((x) => x.nUtil) };
    const abstained = s.filter((x) => x.abstained).length;
    return [
      {
        mode,
        n: s.length,
        hallucinationAccuracy: hallucinationAccuracy(tot),
        factorUtilizationRecall: utilizationRecall(tot),
        abstained,
        abstentionRatio: abstained / s.length,
        abstentionExpected: expectedBehaviour(mode) === 'abstain',
      },
    ];
  });
}
