/**
 * `lexcase run mad --dataset barexam|mmlu_pro_law --split val [--index DIR] [--rounds 2]
 *  [--topology full|sparse] [--cross-examiner] [--judge-each-round] [--system mad|single-rag|self-consistency]
 *  [--samples 5] [--method bm25] [-k 5] [--seed 13 | --seeds 13,14,15] [--limit N] [--run-dir DIR]`:
 * the multi-agent debate (or one of its baselines) over a dataset split on the experiment runner
 * (resumable run dir, traces with the debate transcript per round, citations and judge output),
 * then accuracy with a 95% CI and citation quality (mad-metrics.md). With --seeds the run is
 * repeated per seed (run dirs suffixed -s<seed>) and consistency across seeds is reported.
 * Compare systems with `lexcase compare <runA> <runB>` (paired bootstrap).
 */
import type { Command } from 'commander';
import { MAD_SYSTEMS, type MadSystemName } from '../../../agents/mad/system-names.js';
import type { MadExperimentOptions, MadExperimentResult } from '../../../agents/mad/experiment.js';
import { parseTopology } from '../../../agents/mad/topology.js';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { action, output, parseIntOpt, parseListOpt, type GlobalOpts } from '../action.js';
import { degeneracyWarnings } from '../../../agents/common/paper-settings.js';
import { AGENT_DEFAULTS } from '../../../agents/common/defaults.js';
import { addLlmOptions, resolveLlm, runModelConfig, warnValidity } from '../llm-options.js';
import { addRunOptions, runCommand, type RunFlags } from './run-case.js';
import { exitWhenNoItemSucceeded } from '../run-command.js';
import { INDEX_METHODS } from '../../../retrieval/open-index.js';

interface RunMadFlags extends RunFlags {
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

function summary(r: MadExperimentResult) {
  return { runDir: r.runDir, ran: r.ran, skipped: r.skipped, failed: r.failed, metrics: r.metrics };
}

function human(r: MadExperimentResult): string {
  return [`${r.runDir}: ran ${r.ran}, skipped ${r.skipped} (already done), failed ${r.failed}`, '', r.markdown].join('\n');
}

export function register(program: Command): void {
  addLlmOptions(
    addRunOptions(runCommand(program).command('mad').description('multi-agent debate: one debater per option, rounds, topology, judge (or its baselines)'))
      .option('--system <name>', `${MAD_SYSTEMS.join(' | ')}`, 'mad')
      .option('--rounds <n>', 'debate rounds (1–3)', parseIntOpt('rounds', { min: 1, max: 3 }), AGENT_DEFAULTS.rounds)
      .option('--topology <t>', 'full (every opponent) | sparse (the preceding opponent only)', 'sparse')
      .option('--cross-examiner', 'one targeted question to each debater before judgment')
      .option('--judge-each-round', 'also judge after each earlier round (accuracy per round from one debate)')
      .option('--samples <n>', 'self-consistency samples', parseIntOpt('samples', { min: 1 }), 5)
      .option('--method <m>', `the shared retriever (its <method>_search tool): ${INDEX_METHODS.join(' | ')}`, 'bm25')
      .option('--passage-chars <n>', 'characters of each passage shown', parseIntOpt('passage-chars', { min: 1 }), 600)
      .option('--seeds <list>', 'run once per seed (comma-separated) and report consistency across seeds', parseListOpt),
    { offline: false },
  ).action(
    action(async (flags: RunMadFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      if (!MAD_SYSTEMS.includes(flags.system as MadSystemName))
        throw errors.invalidInput('--system', `"${flags.system}"; expected one of ${MAD_SYSTEMS.join(', ')}`);
      if (flags.offline)
        throw errors.usage(
          '`run mad` needs an LLM; --offline has no debate to run',
          'configure an endpoint (lexcase.config.json or LEXCASE_LLM_BASE_URL + LEXCASE_LLM_MODEL)',
        );
      const topology = parseTopology(flags.topology);
      const seeds = flags.seeds?.map((s) => {
        const n = Number(s);
        if (!Number.isInteger(n)) throw errors.invalidInput('--seeds', `"${s}" is not an integer`);
        return n;
      });
      const llm = await resolveLlm(flags, { paper: flags.system as MadSystemName });
      const warnings = warnValidity(
        degeneracyWarnings(flags.system as MadSystemName, { temperature: llm.config.llm.temperature, samples: flags.samples, rounds: flags.rounds }),
      );
      // the system list (agents/systems.ts) hands itself to eval: the report finds the run's system's section
      const [{ ensureDefaultIndex }, { runMadExperiment, runMadSeeds }, { parseSplit }] = await Promise.all([
        import('../../../retrieval/default-index.js'),
        import('../../../agents/mad/experiment.js'),
        import('../../../corpora/splits.js'),
        import('../../../agents/systems.js'),
      ]);
      const index = flags.index ?? (await ensureDefaultIndex(undefined, (l) => log.info(l)));
      const o: MadExperimentOptions = {
        system: flags.system as MadSystemName,
        samples: flags.samples,
        rounds: flags.rounds,
        topology,
        crossExaminer: !!flags.crossExaminer,
        judgeEachRound: !!flags.judgeEachRound,
        k: flags.k,
        method: flags.method,
        passageChars: flags.passageChars,
        dataset: flags.dataset,
        split: parseSplit(flags.split),
        splitSeed: flags.splitSeed,
        index,
        llm: llm.model,
        model: runModelConfig(llm),
        warnings,
        usage: llm.usage,
        seed: flags.seed,
        limit: flags.limit,
        concurrency: flags.concurrency,
        retryFailed: flags.retryFailed,
        runDir: flags.runDir,
      };
      if (seeds) {
        const r = await runMadSeeds(o, seeds);
        output(g, { runs: r.runs.map(summary), consistency: r.consistency }, () => [...r.runs.map(human), '', r.markdown].join('\n\n'));
        for (const run of r.runs) await exitWhenNoItemSucceeded(run.runDir);
        return;
      }
      const r = await runMadExperiment(o);
      output(g, summary(r), () => human(r));
      await exitWhenNoItemSucceeded(r.runDir);
    }),
  );
}
