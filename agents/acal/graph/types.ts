/**
 * The ACAL argument graph as saved with a run (runs/<name>/acal/<itemId>.graph.json): the claim,
 * the arguments (with role, side, base strength from the rubric, cited passage ids), directed
 * argument-to-argument relations, clash-resolution outcomes, the semantics settings, and the
 * derived result. Everything needed to recompute the verdict without an LLM.
 */
import { z } from 'zod';
import type { SemanticsName } from '../semantics/types.js';

export const SIDES = ['support', 'attack'] as const;
export type Side = (typeof SIDES)[number];
export type Verdict = 'Yes' | 'No';

const unit = z.number().min(0).max(1);

export const argumentSchema = z.object({
  id: z.string().min(1),
  /** Originating agent role (one of the ten legal roles) or "human". */
  agent: z.string().min(1),
  side: z.enum(SIDES),
  text: z.string().min(1),
  /** Intrinsic strength from the 0.1–1.0 rubric (or set by the human who added the argument). */
  baseStrength: unit,
  rubricNote: z.string().optional(),
  citedPassageIds: z.array(z.string()),
  /** "proposed" until a human accepts or rejects it; rejected arguments leave the QBAF. */
  status: z.enum(['proposed', 'accepted', 'rejected']),
  origin: z.enum(['llm', 'human']),
  /** Base strength set by a human through contestation; overrides base + clash adjustment. */
  humanBase: unit.optional(),
});
export type AcalArgument = z.infer<typeof argumentSchema>;

export const relationSchema = z.object({
  from: z.string().min(1),
  to: z.string().min(1),
  kind: z.enum(['support', 'attack']),
  confidence: unit,
  origin: z.enum(['llm', 'human', 'heuristic']),
});
export type AcalRelation = z.infer<typeof relationSchema>;

export const clashOutcomeSchema = z.object({
  support: z.string(),
  attack: z.string(),
  winner: z.string(),
  reason: z.string().optional(),
});
export type ClashOutcome = z.infer<typeof clashOutcomeSchema>;

export const resultSchema = z.object({
  semantics: z.enum(['quadratic', 'dfquad', 'acal-compat']),
  claimStrength: unit,
  strengths: z.record(z.string(), z.number()),
  effectiveBase: z.record(z.string(), z.number()),
  clashDelta: z.record(z.string(), z.number()),
  converged: z.boolean(),
  method: z.enum(['topological', 'continuous', 'fixed-point']),
  iterations: z.number(),
  residual: z.number(),
  thresholdVerdict: z.enum(['Yes', 'No']),
  inBand: z.boolean(),
  verdict: z.enum(['Yes', 'No']),
  /** "judge": the uncertainty-aware judge decided; "threshold": σ(claim) ≥ θ; with
   * escalation "needed" the claim is in the band but no judge has seen this revision. */
  decidedBy: z.enum(['threshold', 'judge']),
  escalation: z.enum(['none', 'done', 'needed']),
});
export type GraphResult = z.infer<typeof resultSchema>;

export const graphSchema = z.object({
  version: z.literal(1),
  itemId: z.string().min(1),
  task: z.string().optional(),
  claim: z.object({ id: z.literal('claim'), text: z.string(), base: unit }),
  caseText: z.string(),
  evidence: z.array(z.object({ id: z.string(), text: z.string(), title: z.string().optional() })),
  arguments: z.array(argumentSchema),
  relations: z.array(relationSchema),
  clash: z.object({
    delta: z.number().min(0),
    beta: z.number().min(0),
    /** Base strengths after adjustment are clamped to this range ([0, 1] faithful; [0.1, 0.95] acal-compat). */
    clamp: z.tuple([unit, unit]),
    outcomes: z.array(clashOutcomeSchema),
  }),
  settings: z.object({
    semantics: z.enum(['quadratic', 'dfquad', 'acal-compat']),
    threshold: unit,
    band: z.tuple([unit, unit]),
  }),
  judge: z.object({ decision: z.enum(['Yes', 'No']), reasoning: z.string(), claimStrength: z.number(), revision: z.number().int() }).optional(),
  /** Bumped by every contestation action. */
  revision: z.number().int().min(0),
  result: resultSchema.optional(),
});
export type AcalGraph = z.infer<typeof graphSchema>;

export interface GraphSettings {
  semantics: SemanticsName;
  threshold: number;
  band: [number, number];
}

/** Paper defaults: θ = 0.5, uncertainty band [0.49, 0.51], δ = 0.2, β = 0.15, τ(claim) = 0.5. */
export const PAPER_DEFAULTS = {
  threshold: 0.5,
  band: [0.49, 0.51] as [number, number],
  delta: 0.2,
  beta: 0.15,
  claimBase: 0.5,
  relationMinConfidence: 0.6,
  relationBatchSize: 10,
} as const;

/** What the public ACAL code does instead (documented for acal-compat comparisons). */
export const ACAL_CODE_VALUES = { band: [0.45, 0.55] as [number, number], clashClamp: [0.1, 0.95] as [number, number] } as const;
