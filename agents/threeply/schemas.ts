/** zod schemas of the JSON replies of the 3-ply agents (tolerant of the usual spelling drift). */
import { z } from 'zod';
import { sendAs } from '../../core/llm/json-schema.js';

export type AnalysisOutcome = 'REQUIRES_ABSTENTION' | 'REQUIRES_CORRECTION' | 'VALID_ARGUMENT';

const OUTCOMES = ['REQUIRES_ABSTENTION', 'REQUIRES_CORRECTION', 'VALID_ARGUMENT'] as const;

/**
 * One of the three outcomes, case, spaces, dashes, underscores and end punctuation forgiven
 * ("requires correction", "REQUIRES-CORRECTION", "Valid argument."); "TERMINATE" alone, or before or
 * after REQUIRES_ABSTENTION, is an abstention. Anything else is undefined — "INVALID_ARGUMENT",
 * "NOT VALID", "NO_ABSTENTION_REQUIRED", "No correction required" name no outcome (they once read as
 * the outcome they negate).
 */
export function normalizeOutcome(s: string): AnalysisOutcome | undefined {
  const k = s
    .toUpperCase()
    .replace(/[^A-Z]+/g, '_')
    .replace(/^_|_$/g, '');
  if (k === 'TERMINATE') return 'REQUIRES_ABSTENTION';
  const outcome = k.replace(/^TERMINATE_|_TERMINATE$/, '');
  if (outcome !== k && outcome !== 'REQUIRES_ABSTENTION') return undefined;
  return OUTCOMES.find((o) => o === outcome);
}

const text = z.preprocess((v) => (v === null || v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v)), z.string().optional());

const nullableText = { anyOf: [{ type: 'string' }, { type: 'null' }] };

/**
 * The Factor Analyst's report. Sent in the strict subset: `analysis_outcome` is an enum of the three
 * outcomes; the details are required but nullable (the prompt asks for them only when they apply).
 * Its reasoning comes first and the outcome last (the paper's prompt lists the outcome first, but a
 * schema-following server writes keys in schema order, and the outcome should follow the analysis):
 * summary, the factors used, the abstention and correction details, then the outcome.
 * Parsed leniently: spelling drift of the outcome is normalised, extra keys are kept.
 */
export const analystReportSchema = z
  .object({
    summary: text,
    utilized_factors: z.array(z.string()).nullish(),
    abstention_details: sendAs(z.object({ reason_for_abstention: text }).loose().nullish(), {
      anyOf: [
        { type: 'object', properties: { reason_for_abstention: nullableText }, required: ['reason_for_abstention'], additionalProperties: false },
        { type: 'null' },
      ],
    }),
    correction_details: sendAs(
      z
        .object({
          fabricated_or_misrepresented_factors: z.array(z.string()).nullish(),
          misrepresented_precedent_outcome: text,
          misrepresented_tsc_outcome: text,
          other_issues_for_correction: text,
        })
        .loose()
        .nullish(),
      {
        anyOf: [
          {
            type: 'object',
            properties: {
              fabricated_or_misrepresented_factors: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
              misrepresented_precedent_outcome: nullableText,
              other_issues_for_correction: nullableText,
            },
            required: ['fabricated_or_misrepresented_factors', 'misrepresented_precedent_outcome', 'other_issues_for_correction'],
            additionalProperties: false,
          },
          { type: 'null' },
        ],
      },
    ),
    analysis_outcome: sendAs(
      z.string().transform((s, ctx) => {
        const o = normalizeOutcome(s);
        if (!o) {
          ctx.addIssue({ code: 'custom', message: `expected REQUIRES_ABSTENTION, REQUIRES_CORRECTION or VALID_ARGUMENT, got "${s}"` });
          return z.NEVER;
        }
        return o;
      }),
      { type: 'string', enum: [...OUTCOMES] },
    ),
  })
  .loose();
export type AnalystReport = z.infer<typeof analystReportSchema>;

const YES_NO: Record<string, boolean> = { true: true, yes: true, '1': true, false: false, no: false, '0': false };

/**
 * A yes/no flag: a boolean, 1 or 0, or one of true/false, yes/no, 1/0 (case, spaces and a trailing
 * period forgiven); anything else ("Yes, revise", "maybe") is refused rather than read as false.
 */
const bool = z.preprocess(
  (v) => (typeof v === 'string' ? (YES_NO[v.trim().toLowerCase().replace(/\.$/, '')] ?? v) : v === 1 || v === 0 ? v === 1 : v),
  z.boolean({ message: 'expected true or false (yes/no, 1/0)' }),
);

/** The values the paper's Polisher prompt lists for each assessment (appendix A). */
export const SEGMENT_TYPES = ["Plaintiff's Argument", "Defendant's Counterargument", "Plaintiff's Rebuttal"] as const;
export const ACCURACY = ['Accurate', 'Minor Inaccuracies', 'Major Inaccuracies'] as const;
export const STRENGTH = ['Strong', 'Moderate', 'Weak'] as const;
export const UTILIZATION = ['Excellent', 'Good', 'Fair', 'Poor'] as const;

/**
 * One of `values`, sent as their enum (issue 36, item 5: the prompt lists them, so a schema-following
 * server must pick one); parsed leniently — case, spacing, curly apostrophes and a trailing remark
 * ("Moderate (based on …)") are forgiven, anything else is refused (and re-asked once).
 */
function listed(values: readonly string[]) {
  const key = (v: string) =>
    v
      .toLowerCase()
      .replace(/[’‘`]/g, "'")
      .replace(/[^a-z']+/g, ' ')
      .trim();
  return sendAs(
    z.string().transform((v, ctx) => {
      const k = key(v);
      const hit = values.find((x) => k === key(x)) ?? [...values].sort((a, b) => b.length - a.length).find((x) => k.startsWith(key(x)));
      if (!hit) {
        ctx.addIssue({ code: 'custom', message: `expected one of ${values.join(', ')}, got "${v}"` });
        return z.NEVER;
      }
      return hit;
    }),
    { type: 'string', enum: [...values] },
  );
}

/**
 * The Argument Polisher's report, the appendix's fields with its feedback first: a schema-following
 * server writes keys in schema order, so `feedback_summary` comes before the four graded
 * assessments and `revision_needed` (the appendix's prompt lists the grades first).
 */
export const polisherReportSchema = z
  .object({
    feedback_summary: text,
    // optional for a prompt-mode reply that leaves one out; when given, it must be a listed value
    argument_segment_type: listed(SEGMENT_TYPES).optional(),
    accuracy_assessment: listed(ACCURACY).optional(),
    strength_assessment: listed(STRENGTH).optional(),
    factor_utilization_assessment: listed(UTILIZATION).optional(),
    // required: a reply that leaves the decision out is refused and asked again (before, it read as no revision)
    revision_needed: bool,
    instructions_for_developer: text,
    polished_argument: text,
  })
  .loose();
export type PolisherReport = z.infer<typeof polisherReportSchema>;

/** The single agent's (SA) 3-ply argument: the paper's three keys. */
export const threePlySchema = z
  .object({
    "Plaintiff's Argument": text,
    "Defendant's Counterargument": text,
    "Plaintiff's Rebuttal": text,
  })
  .loose();

/**
 * SA-EP's reply: its step-by-step `reasoning` first (the prompt's Steps 1–3; a schema-following
 * server writes keys in schema order), then the three plies. An abstention is "TERMINATE: <reason>"
 * as the Plaintiff's Argument with the other plies empty (prompts.ts ENHANCED_SINGLE_AGENT_SYSTEM).
 */
export const enhancedThreePlySchema = z.object({ reasoning: text, ...threePlySchema.shape }).loose();

/**
 * The Factor Distiller's lists. `labels` (the factor model's "F4 Agreed-not-to-disclose (P)" strings)
 * are the closed set a schema-following server picks from; the parser also takes free strings
 * (prompt mode), which scoring maps to factor ids or counts as hallucinated. Each list is required:
 * a reply without `c1`/`c2`/`c3` (written under `C1`…, or left out) is no distillation, asked again and
 * then a failure — it was read as three empty lists, "no factor", which scored 100% hallucination
 * accuracy and 0% recall as if the model had answered.
 */
export function distilledSchema(labels: readonly string[]) {
  const list = sendAs(z.array(z.string()), { type: 'array', items: { type: 'string', enum: [...new Set(labels)] } });
  return z.object({ c1: list, c2: list, c3: list });
}
