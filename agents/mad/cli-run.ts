/**
 * `lexcase run mad` after parsing (its flags: agents/mad/plugin.ts `cli`): the multi-agent debate (or
 * one of its baselines) over a dataset split on the experiment runner (resumable run dir, traces
 * with the debate transcript per round, citations and judge output), then accuracy with a 95% CI
 * and citation quality (mad-metrics.md). With --seeds the run is repeated per seed (run dirs
 * suffixed -s<seed>) and consistency across seeds is reported. Compare systems with
 * `lexcase compare <runA> <runB>` (paired bootstrap).
 */
import type { CliRunContext, CliRunResult } from '../../eval/cli-schema.js';
import { warnValidity } from '../../core/llm/resolved-llm.js';
import { errors } from '../../core/errors.js';
import { readRunUnderWay, runCountsText, runTokensText, runTokenTotal, runUncountedRequests, type UnderWay } from '../../eval/run-counts.js';
import { degeneracyWarnings } from '../common/degeneracy.js';
import { runOptions, type RunOptionFlags } from '../common/run-options.js';
import type { MadExperimentOptions, MadExperimentResult } from './experiment.js';
import { MAD_SYSTEMS, type MadSystemName } from './system-names.js';
import { checkSeeds } from './metrics.js';
import { checkSeed } from '../../core/rng.js';
import { parseTopology } from './topology.js';
import { parseDecimalInt } from '../../core/decimal-number.js';
import { log } from '../../core/log.js';

interface MadFlags extends RunOptionFlags {
  rounds: number;
  topology: string;
  crossExaminer?: boolean;
  judgeEachRound?: boolean;
  system: string;
  samples: number;
  method: string;
  passageChars: number;
  seeds?: string[];
}

function summary(r: MadExperimentResult, underWay?: UnderWay) {
  return {
    runDir: r.runDir,
    ran: r.ran,
    skipped: r.skipped,
    keptFailed: r.keptFailed,
    failed: r.failed,
    runTokens: runTokenTotal(r.results),
    tokens: r.tokens,
    requests: runUncountedRequests(r.results, underWay),
    metrics: r.metrics,
  };
}

function human(r: MadExperimentResult, underWay: UnderWay): string {
  return [`${r.runDir}: ${runCountsText(r)}; ${runTokensText(r.results, r.tokens.total, underWay)}`, '', r.markdown].join('\n');
}

export async function cliRun(ctx: CliRunContext): Promise<CliRunResult> {
  const flags = ctx.flags as unknown as MadFlags;
  if (!MAD_SYSTEMS.includes(flags.system as MadSystemName))
    throw errors.invalidInput('--system', `"${flags.system}"; expected one of ${MAD_SYSTEMS.join(', ')}`);
  if (flags.offline)
    throw errors.usage(
      '`run mad` needs an LLM; --offline has no debate to run',
      'configure an endpoint (lexcase.config.json or LEXCASE_LLM_BASE_URL + LEXCASE_LLM_MODEL)',
    );
  const topology = parseTopology(flags.topology);
  const seeds = flags.seeds?.map((s) => {
    const n = parseDecimalInt(s); // decimal digits: `0x10` ran as seed 16
    if (!Number.isInteger(n)) throw errors.invalidInput('--seeds', `"${s}" is not an integer`);
    return checkSeed(n, '--seeds');
  });
  if (seeds) checkSeeds(seeds, '--seeds', flags.seeds);
  // one run per --seeds value: a --seed beside it was dropped without a word
  if (seeds && ctx.given('seed'))
    throw errors.usage(
      `--seed ${flags.seed} and --seeds ${flags.seeds!.join(',')}: --seeds runs one run per seed, so --seed would be ignored`,
      'give --seed or --seeds',
    );
  const llm = await ctx.resolveLlm({ paper: flags.system });
  const warnings = warnValidity(
    degeneracyWarnings(flags.system as MadSystemName, { temperature: llm.config.llm.temperature, samples: flags.samples, rounds: flags.rounds }),
  );
  const { runMadExperiment, runMadSeeds } = await import('./experiment.js');
  const o: MadExperimentOptions = {
    ...(await runOptions(flags, llm)),
    system: flags.system as MadSystemName,
    samples: flags.samples,
    rounds: flags.rounds,
    topology,
    crossExaminer: !!flags.crossExaminer,
    judgeEachRound: !!flags.judgeEachRound,
    method: flags.method,
    passageChars: flags.passageChars,
    warnings,
  };
  if (seeds) {
    const r = await runMadSeeds(o, seeds);
    // the requests of items under way at an interrupt (config.json `interrupts`): in no results.jsonl line, said on the counts line
    const underWay = await Promise.all(r.runs.map((run) => readRunUnderWay(run.runDir)));
    return {
      json: { runs: r.runs.map((run, i) => summary(run, underWay[i])), consistency: r.consistency },
      human: () => [...r.runs.map((run, i) => human(run, underWay[i])), '', r.markdown].join('\n\n'),
      runDirs: r.runs.map((run) => run.runDir),
    };
  }
  const r = await runMadExperiment(o);
  const underWay = await readRunUnderWay(r.runDir);
  return { json: summary(r, underWay), human: () => human(r, underWay), runDirs: [r.runDir] };
}
