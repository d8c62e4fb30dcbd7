/**
 * The reflective multi-agent system (RMA, §3.3), per ply:
 *  1. the Argument Developer drafts the ply;
 *  2. the Factor Analyst checks it — REQUIRES_ABSTENTION makes the ply's output TERMINATE and stops
 *     the generation there (the plies already argued stay); the Argument Polisher then assesses
 *     and polishes it;
 *  3. if the Polisher asks for a revision or the Analyst requires a correction, the Developer
 *     revises once from the consolidated feedback;
 *  4. the Analyst re-checks (and may still TERMINATE) and the Polisher re-polishes the revision;
 *  5. the ply's output is the polished draft (no revision) or the re-polished revision; a Polisher
 *     reply whose `polished_argument` is empty or missing (schema-valid: the appendix's reply may omit
 *     it) keeps the unpolished text, counted in metrics `unpolishedPlies` and report.md's Reflection line.
 * At most one revision per ply. Plies are produced in order with the earlier ones as context. A ply whose output
 * reads TERMINATE (format.ts isTerminate) ends the triple as an abstention at that ply, as in the other systems.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { analyzePly, reportText } from './factor-analyst.js';
import { polishPly } from './argument-polisher.js';
import { draftPly, revisePly } from './argument-developer.js';
import { formatPlies, isTerminate, PLIES, terminateText, type PlyKey } from './format.js';
import type { AnalystReport, PolisherReport } from './schemas.js';
import type { ArgumentResult, TraceStep } from './types.js';

function feedback(a: AnalystReport, p: PolisherReport): string {
  return [
    `Factor Analyst:\n${reportText(a)}`,
    `Argument Polisher: ${p.feedback_summary ?? ''}${p.instructions_for_developer ? `\nInstructions: ${p.instructions_for_developer}` : ''}`,
  ].join('\n\n');
}

export async function runReflective(model: BaseChatModel, triple: string, signal?: AbortSignal): Promise<ArgumentResult> {
  const steps: TraceStep[] = [];
  const plies: Partial<Record<PlyKey, string>> = {};
  const reflection = { revisedPlies: 0, uncorrectedPlies: 0, unpolishedPlies: 0 };
  // the ply's output: the Polisher's text, or the draft it polished when its polished_argument is empty (counted)
  const polished = (p: PolisherReport, draft: string): string => {
    const text = p.polished_argument?.trim();
    if (text) return text;
    reflection.unpolishedPlies++;
    return draft;
  };
  const terminate = (ply: PlyKey, report: AnalystReport): ArgumentResult => {
    const reason = report.summary ?? report.abstention_details?.reason_for_abstention ?? 'Factor Analyst required abstention';
    return { abstained: true, terminatedAt: ply, reason, plies: { ...plies, [ply]: terminateText(reason) }, steps, reflection };
  };

  // a ply whose output reads TERMINATE (the Developer abstained and the Analyst passed it, the Polisher kept it) is the
  // system's abstention at that ply, as in the other systems: before 2026-12-05 it was kept as an argued ply, generation
  // went on, and the triple counted as argued with no factor (abstention 0%, hallucination accuracy 100%)
  const terminated = (ply: PlyKey): ArgumentResult => ({ abstained: true, terminatedAt: ply, reason: plies[ply], plies: { ...plies }, steps, reflection });

  for (const ply of PLIES) {
    const earlier = formatPlies(plies);
    const draft = await draftPly(model, 'developer', ply, triple, earlier, signal);
    steps.push({ ply, role: 'developer', round: 0, output: draft });

    const report = await analyzePly(model, ply, triple, draft, signal);
    steps.push({ ply, role: 'analyst', round: 0, decision: report.analysis_outcome, output: report });
    if (report.analysis_outcome === 'REQUIRES_ABSTENTION') return terminate(ply, report);

    const polish = await polishPly(model, ply, triple, draft, reportText(report), signal);
    steps.push({ ply, role: 'polisher', round: 0, decision: polish.revision_needed ? 'revise' : 'accept', output: polish });

    if (!polish.revision_needed && report.analysis_outcome !== 'REQUIRES_CORRECTION') {
      plies[ply] = polished(polish, draft);
      if (isTerminate(plies[ply])) return terminated(ply);
      continue;
    }

    const revised = await revisePly(model, ply, triple, earlier, draft, feedback(report, polish), signal);
    steps.push({ ply, role: 'developer', round: 1, output: revised });
    reflection.revisedPlies++;
    const report2 = await analyzePly(model, ply, triple, revised, signal);
    steps.push({ ply, role: 'analyst', round: 1, decision: report2.analysis_outcome, output: report2 });
    if (report2.analysis_outcome === 'REQUIRES_ABSTENTION') return terminate(ply, report2);
    const polish2 = await polishPly(model, ply, triple, revised, reportText(report2), signal);
    steps.push({ ply, role: 'polisher', round: 1, decision: polish2.revision_needed ? 'revise (no further round)' : 'accept', output: polish2 });
    plies[ply] = polished(polish2, revised);
    if (isTerminate(plies[ply])) return terminated(ply);
    // the cap of one revision: a re-check that still finds factor errors does not revise again
    if (report2.analysis_outcome === 'REQUIRES_CORRECTION') reflection.uncorrectedPlies++;
  }
  return { abstained: false, plies, steps, reflection };
}
