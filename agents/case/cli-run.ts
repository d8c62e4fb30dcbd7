/**
 * `lexcase run case` after parsing (its flags: agents/case/plugin.ts `cli`): the CASE pipeline over a
 * dataset split on the experiment runner (resumable run dir), then its metrics. Without --index, the
 * bundled default index (.lexcase/demo/index) is used, built if absent. Without --offline and
 * without a configured LLM it stops at once with how to configure one (the command's `resolveLlm`).
 */
import type { CliRunContext, CliRunResult } from '../../eval/cli-schema.js';
import { warnValidity, runModelConfig } from '../../core/llm/resolved-llm.js';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { degeneracyWarnings } from '../common/degeneracy.js';
import type { CaseExperimentResult } from './experiment.js';

/** The shared run options (eval/cli-schema.ts RUN_OPTIONS) as parsed. */
export interface RunOptionFlags {
  dataset: string;
  split: string;
  splitSeed: number;
  index?: string;
  k: number;
  seed: number;
  limit?: number;
  runDir?: string;
  concurrency: number;
  /** --no-retry-failed sets retryFailed=false. */
  retryFailed?: boolean;
  offline?: boolean;
}

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
  return [
    `${title}: ${r.runDir}`,
    `ran ${r.ran}${r.retried ? ` (${r.retried} failed earlier, retried)` : ''}, skipped ${r.skipped} (already done), failed ${r.failed}`,
    '',
    r.markdown,
  ].join('\n');
}

/** The printed summary of a CASE-runner run (`--json`). */
export const runSummary = (r: CaseExperimentResult) => ({ runDir: r.runDir, ran: r.ran, skipped: r.skipped, failed: r.failed, metrics: r.metrics });

export async function cliRun(ctx: CliRunContext): Promise<CliRunResult> {
  const flags = ctx.flags as unknown as CaseFlags;
  if (flags.evidence !== 'learned' && flags.evidence !== 'plan') throw errors.invalidInput('--evidence', `"${flags.evidence}"; expected learned or plan`);
  if (flags.hypotheses !== 'direct' && flags.hypotheses !== 'exploratory')
    throw errors.invalidInput('--hypotheses', `"${flags.hypotheses}"; expected direct or exploratory`);
  const llm = await ctx.resolveLlm({ paper: 'case' });
  const warnings = llm.offline ? [] : warnValidity(degeneracyWarnings('case', { temperature: llm.config.llm.temperature, jurors: flags.jurors }));
  const [{ ensureDefaultIndex, runCaseExperiment }, { parseSplit }, { OFFLINE_LABEL }] = await Promise.all([
    import('./experiment.js'),
    import('../../corpora/splits.js'),
    import('./advocate-offline.js'),
  ]);
  const index = flags.index ?? (await ensureDefaultIndex(undefined, (l) => log.info(l)));
  const r = await runCaseExperiment({
    system: 'case',
    dataset: flags.dataset,
    split: parseSplit(flags.split),
    splitSeed: flags.splitSeed,
    index,
    offline: llm.offline,
    llm: llm.model,
    model: runModelConfig(llm),
    warnings,
    usage: llm.usage,
    tools: flags.tools,
    evidence: flags.evidence as 'learned' | 'plan',
    jurors: flags.jurors,
    k: flags.k,
    seed: flags.seed,
    limit: flags.limit,
    hypotheses: flags.hypotheses,
    maxSteps: flags.maxSteps,
    maxTokens: flags.maxTokens,
    concurrency: flags.concurrency,
    retryFailed: flags.retryFailed,
    runDir: flags.runDir,
  });
  return { json: runSummary(r), human: () => formatRun(r, `CASE${llm.offline ? ` (${OFFLINE_LABEL})` : ''}`), runDirs: [r.runDir] };
}
