/**
 * `lexcase run acal --task …` after parsing (its flags: agents/acal/plugin.ts `cli`): ACAL (or a
 * paper baseline) over a LegalBench task; a resumable run dir with results.jsonl, traces, one
 * argument graph per item (<run-dir>/acal/<id>.graph.json) and acal-report.md|json.
 */
import { join } from 'node:path';
import type { CliRunContext, CliRunResult } from '../../eval/cli-schema.js';
import { compactLocal, runModelConfig } from '../../core/llm/resolved-llm.js';
import { errors } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { readRunUnderWay, runCountsText, runTokensText, runTokenTotal, runUncountedRequests } from '../../eval/run-counts.js';
import { isSemanticsName, SEMANTICS } from './semantics/names.js';
import { ACAL_SYSTEMS, type AcalSystemName } from './system-names.js';

interface AcalFlags {
  task: string;
  system: string;
  semantics: string;
  index?: string;
  data?: string;
  split: string;
  limit?: number;
  k: number;
  passageChars: number;
  runDir?: string;
  seed: number;
  concurrency: number;
  retryFailed?: boolean;
  iterations: number;
  clash: boolean;
  escalation: boolean;
  offline?: boolean;
}

export async function cliRun(ctx: CliRunContext): Promise<CliRunResult> {
  const flags = ctx.flags as unknown as AcalFlags;
  if (!isSemanticsName(flags.semantics)) throw errors.usage(`--semantics: unknown "${flags.semantics}"`, `use one of ${SEMANTICS.join(', ')}`);
  if (!(ACAL_SYSTEMS as readonly string[]).includes(flags.system))
    throw errors.usage(`--system: unknown "${flags.system}"`, `use one of ${ACAL_SYSTEMS.join(', ')}`);
  if (flags.split !== 'test' && flags.split !== 'train') throw errors.usage(`--split must be test or train, got "${flags.split}"`);
  if (flags.offline)
    throw errors.usage('run acal needs an LLM; it has no offline path', 'drop --offline and configure an endpoint (tests use the scripted server)');
  const { resolveLegalBenchFile } = await import('../../corpora/legalbench.js');
  resolveLegalBenchFile(flags.task, { split: flags.split, dir: flags.data }); // fail on missing data before building an index
  const { fewShotFile } = await import('./few-shot.js');
  fewShotFile(flags.task, flags.system, flags.split, flags.data); // sp/cot: not on --split train, and not without the train rows
  if (flags.k < 0) throw errors.usage(`--k must be 0 or more, got ${flags.k}`);
  const llm = await ctx.resolveLlm();
  const { model, config, usage, local } = llm;
  const [{ runAcal }, { ensureDefaultIndex }] = await Promise.all([import('./experiment.js'), import('../../retrieval/default-index.js')]);
  const needsIndex = flags.k > 0 && (flags.system === 'acal' || flags.system === 'rag');
  const index = needsIndex ? (flags.index ?? (await ensureDefaultIndex(undefined, (l) => log.info(l)))) : undefined;
  const system = flags.system as AcalSystemName;
  const runDir = flags.runDir ?? join('runs', `acal-${system}-${flags.task}${system === 'acal' ? `-${flags.semantics}` : ''}`);
  const ac = new AbortController();
  const onSig = () => ac.abort(new Error('interrupted'));
  process.once('SIGINT', onSig);
  try {
    const r = await runAcal({
      task: flags.task,
      runDir,
      llm: model!,
      system,
      split: flags.split,
      dataDir: flags.data,
      limit: flags.limit,
      semantics: flags.semantics,
      clashResolution: flags.clash,
      escalation: flags.escalation,
      k: flags.k,
      passageChars: flags.passageChars,
      indexDir: index,
      seed: flags.seed,
      concurrency: flags.concurrency,
      retryFailed: flags.retryFailed,
      iterations: flags.iterations,
      usage,
      // the public (redacted) LLM settings, as CASE, MAD and the baselines record them: a resume against another endpoint, model or sampling is refused
      extraConfig: {
        model: { ...runModelConfig(llm), ...(local ? { local: compactLocal(local) } : {}) },
        temperature: config.llm.temperature,
        ...(local ? { local: compactLocal(local) } : {}),
      },
      signal: ac.signal,
    });
    // the requests of items under way at an interrupt (config.json `interrupts`): in no results.jsonl line, said on the counts line
    const underWay = await readRunUnderWay(runDir);
    return {
      json: {
        runDir,
        metrics: r.metrics,
        reportMd: r.reportMd,
        reportJson: r.reportJson,
        ran: r.ran,
        skipped: r.skipped,
        keptFailed: r.keptFailed,
        failed: r.failed,
        runTokens: runTokenTotal(r.results),
        tokens: usage.snapshot(),
        requests: runUncountedRequests(r.results, underWay),
      },
      human: () => `${r.markdown}\nrun dir: ${runDir}: ${runCountsText(r)}; ${runTokensText(r.results, usage.snapshot().total, underWay)}\nwrote ${r.reportMd}`,
      runDirs: [runDir],
    };
  } finally {
    process.off('SIGINT', onSig);
  }
}
