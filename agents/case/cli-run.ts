/**
 * `lexcase run case` after parsing (its flags: agents/case/plugin.ts `cli`): the CASE pipeline over a
 * dataset split on the experiment runner (resumable run dir), then its metrics. Without --index, the
 * bundled default index (.lexcase/demo/index) is used, built if absent. Without --offline and
 * without a configured LLM it stops at once with how to configure one (the command's `resolveLlm`).
 */
import type { CliRunContext, CliRunResult } from '../../eval/cli-schema.js';
import { warnValidity } from '../../core/llm/resolved-llm.js';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { picksBeyondKText, repeatedToolCallsText, runCountsText, toolCallsNotOfferedText, unresolvedCitationsText } from '../../eval/run-counts.js';
import { degeneracyWarnings } from '../common/degeneracy.js';
import { runOptions, type RunOptionFlags } from '../common/run-options.js';
import type { CaseExperimentResult } from './experiment.js';

interface CaseFlags extends RunOptionFlags {
  tools?: string[];
  evidence: string;
  jurors: number;
  hypotheses: string;
  maxSteps: number;
  maxTokens: number;
}

/** The human text of a CASE-runner run: its title and run dir, the counts, the metrics' markdown. */
export function formatRun(r: CaseExperimentResult, title: string): string {
  // beside the counts, the evidence cited as no passage handle shown, as MAD's and ACAL's end lines say it (eval/run-counts.ts)
  const unresolved = r.metrics.unresolvedCitations;
  const beyondK = r.metrics.picksBeyondK; // and the picks advocates made after they had their k, dropped
  const repeated = r.metrics.repeatedToolCalls; // and the tool calls a reply repeated, run once
  const notOffered = r.metrics.toolCallsNotOffered; // and the calls naming a tool not offered, refused
  return [
    `${title}: ${r.runDir}`,
    `${runCountsText(r)}${unresolved?.citations ? `; ${unresolvedCitationsText(unresolved)}` : ''}${beyondK?.picks ? `; ${picksBeyondKText(beyondK)}` : ''}${repeated?.calls ? `; ${repeatedToolCallsText(repeated)}` : ''}${notOffered?.calls ? `; ${toolCallsNotOfferedText(notOffered)}` : ''}`,
    '',
    r.markdown,
  ].join('\n');
}

/** The printed summary of a CASE-runner run (`--json`). */
export const runSummary = (r: CaseExperimentResult) => ({
  runDir: r.runDir,
  ran: r.ran,
  skipped: r.skipped,
  keptFailed: r.keptFailed ?? 0,
  failed: r.failed,
  metrics: r.metrics,
});

export async function cliRun(ctx: CliRunContext): Promise<CliRunResult> {
  const flags = ctx.flags as unknown as CaseFlags;
  if (flags.evidence !== 'learned' && flags.evidence !== 'plan') throw errors.invalidInput('--evidence', `"${flags.evidence}"; expected learned or plan`);
  if (flags.hypotheses !== 'direct' && flags.hypotheses !== 'exploratory')
    throw errors.invalidInput('--hypotheses', `"${flags.hypotheses}"; expected direct or exploratory`);
  const llm = await ctx.resolveLlm({ paper: 'case' });
  // the offline heuristic has no jury and makes no model call: these flags were ignored with exit 0,
  // and config.json recorded the --max-steps / --max-tokens typed as if they had bounded the run
  const given = (flags: Record<string, string>): string[] => Object.entries(flags).flatMap(([k, f]) => (ctx.given(k) ? [f] : []));
  const unused = given({ jurors: '--jurors', maxSteps: '--max-steps', maxTokens: '--max-tokens' });
  if (llm.offline && unused.length)
    throw errors.usage(
      `${unused.join(', ')}: the offline heuristic (--offline) has no jury and makes no model call, so ${unused.length === 1 ? 'it does' : 'they do'} nothing there`,
      'leave it out with --offline, or run with an LLM (--endpoint URL --model ID)',
    );
  // the LLM's flags beside --offline: nothing asks a model, so they were dropped without a word (helper audit)
  const llmFlags = given({ endpoint: '--endpoint', model: '--model', modelFile: '--model-file' });
  if (llm.offline && llmFlags.length)
    log.warn(
      `${llmFlags.join(', ')} ${llmFlags.length === 1 ? 'is' : 'are'} not read: --offline runs the heuristic, which asks no LLM (config.json records no model)`,
    );
  // --evidence chooses how the offline heuristic selects evidence; an LLM's advocates choose their own: it was
  // accepted and ignored with exit 0, and config.json recorded nothing of it
  if (!llm.offline && ctx.given('evidence'))
    throw errors.usage(
      `--evidence ${flags.evidence}: it chooses the offline heuristic's evidence selection (--offline); with an LLM the advocates choose their evidence, so it does nothing there`,
      'leave it out with an LLM, or add --offline',
    );
  const warnings = llm.offline ? [] : warnValidity(degeneracyWarnings('case', { temperature: llm.config.llm.temperature, jurors: flags.jurors }));
  const [{ runCaseExperiment }, { OFFLINE_LABEL }] = await Promise.all([import('./experiment.js'), import('./advocate-offline.js')]);
  const r = await runCaseExperiment({
    ...(await runOptions(flags, llm)),
    system: 'case',
    offline: llm.offline,
    warnings,
    tools: flags.tools,
    evidence: flags.evidence as 'learned' | 'plan',
    jurors: flags.jurors,
    hypotheses: flags.hypotheses,
    maxSteps: flags.maxSteps,
    maxTokens: flags.maxTokens,
  });
  return { json: runSummary(r), human: () => formatRun(r, `CASE${llm.offline ? ` (${OFFLINE_LABEL})` : ''}`), runDirs: [r.runDir] };
}
