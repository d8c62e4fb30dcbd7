/** zod schemas of the JSON replies of the 3-ply agents (tolerant of the usual spelling drift). */
import { z } from 'zod';

export type AnalysisOutcome = 'REQUIRES_ABSTENTION' | 'REQUIRES_CORRECTION' | 'VALID_ARGUMENT';

/** "requires correction", "REQUIRES-CORRECTION", "TERMINATE" … → the three canonical outcomes. */
export function normalizeOutcome(s: string): AnalysisOutcome | undefined {
  const k = s.trim().toUpperCase().replace(/[\s-]+/g, '_');
  if (k.includes('ABSTAIN') || k.includes('ABSTENTION') || k.startsWith('TERMINATE')) return 'REQUIRES_ABSTENTION';
  if (k.includes('CORRECT')) return 'REQUIRES_CORRECTION';
  if (k.includes('VALID')) return 'VALID_ARGUMENT';
  return undefined;
}

const text = z.preprocess((v) => (v === null || v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v)), z.string().optional());

export const analystReportSchema = z.object({
  analysis_outcome: z.string().transform((s, ctx) => {
    const o = normalizeOutcome(s);
    if (!o) {
      ctx.addIssue({ code: 'custom', message: `expected REQUIRES_ABSTENTION, REQUIRES_CORRECTION or VALID_ARGUMENT, got "${s}"` });
      return z.NEVER;
    }
    return o;
  }),
  summary: text,
  abstention_details: z.object({ reason_for_abstention: text }).loose().nullish(),
  correction_details: z
    .object({
      fabricated_or_misrepresented_factors: z.array(z.string()).nullish(),
      misrepresented_precedent_outcome: text,
      misrepresented_tsc_outcome: text,
      other_issues_for_correction: text,
    })
    .loose()
    .nullish(),
  utilized_factors: z.array(z.string()).nullish(),
}).loose();
export type AnalystReport = z.infer<typeof analystReportSchema>;

const bool = z.preprocess((v) => (typeof v === 'string' ? /^(true|yes)$/i.test(v.trim()) : v), z.boolean());

export const polisherReportSchema = z.object({
  argument_segment_type: text,
  accuracy_assessment: text,
  strength_assessment: text,
  factor_utilization_assessment: text,
  feedback_summary: text,
  revision_needed: bool.default(false),
  instructions_for_developer: text,
  polished_argument: text,
}).loose();
export type PolisherReport = z.infer<typeof polisherReportSchema>;

export const threePlySchema = z.object({
  "Plaintiff's Argument": text,
  "Defendant's Counterargument": text,
  "Plaintiff's Rebuttal": text,
}).loose();

export const distilledSchema = z.object({
  c1: z.array(z.string()).default([]),
  c2: z.array(z.string()).default([]),
  c3: z.array(z.string()).default([]),
});
