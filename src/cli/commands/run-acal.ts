/**
 * `lexcase run acal --task hearsay|learned_hands_courts [--index DIR] [--limit N]
 *  [--semantics quadratic|dfquad|acal-compat] [--system acal|sp|cot|rag] [--data DIR] [--out DIR]`:
 * ACAL (or a paper baseline) over a LegalBench task; a resumable run dir with results.jsonl,
 * traces, one argument graph per item (<out>/acal/<id>.graph.json) and acal-report.md|json.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { ACAL_SYSTEMS, type AcalSystemName } from '../../../agents/acal/system-names.js';
import { DEFAULT_INDEX_DIR } from '../../../retrieval/default-index-dir.js';
import { isSemanticsName, SEMANTICS } from '../../../agents/acal/semantics/names.js';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { action, output, parseIntOpt, type GlobalOpts } from '../action.js';
import { addLlmOptions, compactLocal, resolveLlm, type LlmCliOpts } from '../llm-options.js';
import { DEFAULT_K } from '../../../retrieval/default-k.js';
import { addRunDirOption, exitWhenNoItemSucceeded, runCommand, runDirFlag } from '../run-command.js';

interface RunAcalFlags extends LlmCliOpts {
  task: string;
  system: string;
  semantics: string;
  index?: string;
  data?: string;
  split: string;
  limit?: number;
  k: number;
  out?: string;
  runDir?: string;
  seed: number;
  concurrency: number;
  retryFailed?: boolean;
  iterations: number;
  clash: boolean;
  escalation: boolean;
}

export function register(program: Command): void {
  addLlmOptions(
    addRunDirOption(runCommand(program).command('acal'), 'runs/acal-<system>-<task>-<semantics>')
      .description('ACAL argument arena (or a baseline) on a LegalBench task; saves a contestable argument graph per item')
      .requiredOption('--task <name>', 'hearsay | learned_hands_courts')
      .option('--system <name>', `${ACAL_SYSTEMS.join(' | ')} (sp/cot/rag are the paper's baselines)`, 'acal')
      .option('--semantics <name>', `${SEMANTICS.join(' | ')} (acal-compat reproduces the public ACAL code's update)`, 'quadratic')
      .option(
        '--index <dir>',
        `index for hybrid-RAG evidence (default: the bundled legal-corpus index in ${DEFAULT_INDEX_DIR}, built if absent; an index with dense vectors enables hybrid_search)`,
      )
      .option('--data <dir>', 'directory with the task data (required for learned_hands_courts, which is CC BY-NC-SA and not bundled)')
      .option('--split <split>', 'test | train', 'test')
      .option('--limit <n>', 'first N items only', parseIntOpt('limit', { min: 1 }))
      .option('-k, --k <n>', 'evidence passages per item (0: no retrieval)', parseIntOpt('k'), DEFAULT_K)
      .option('--seed <n>', 'run seed', parseIntOpt('seed'), 13)
      .option('--concurrency <n>', 'items at once', parseIntOpt('concurrency', { min: 1 }), 1)
      .option('--no-retry-failed', 'on resume, keep failed items as they are (default: run them again)')
      .option('--iterations <n>', 'bootstrap resamples for the CIs', parseIntOpt('iterations', { min: 1 }), 2000)
      .option('--no-clash', 'ablation: no clash resolution')
      .option('--no-escalation', 'ablation: no uncertainty-aware escalation to the judge'),
    { offline: false },
  ).action(
    action(async (flags: RunAcalFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      if (!isSemanticsName(flags.semantics)) throw errors.usage(`--semantics: unknown "${flags.semantics}"`, `use one of ${SEMANTICS.join(', ')}`);
      if (!(ACAL_SYSTEMS as readonly string[]).includes(flags.system))
        throw errors.usage(`--system: unknown "${flags.system}"`, `use one of ${ACAL_SYSTEMS.join(', ')}`);
      if (flags.split !== 'test' && flags.split !== 'train') throw errors.usage(`--split must be test or train, got "${flags.split}"`);
      if (flags.offline)
        throw errors.usage('run acal needs an LLM; it has no offline path', 'drop --offline and configure an endpoint (tests use the scripted server)');
      const { resolveLegalBenchFile } = await import('../../../corpora/legalbench.js');
      resolveLegalBenchFile(flags.task, { split: flags.split, dir: flags.data }); // fail on missing data before building an index
      if (flags.k < 0) throw errors.usage(`--k must be 0 or more, got ${flags.k}`);
      const { model, config, usage, local } = await resolveLlm(flags);
      const [{ runAcal }, { ensureDefaultIndex }] = await Promise.all([
        import('../../../agents/acal/experiment.js'),
        import('../../../retrieval/default-index.js'),
      ]);
      const needsIndex = flags.k > 0 && (flags.system === 'acal' || flags.system === 'rag');
      const index = needsIndex ? (flags.index ?? (await ensureDefaultIndex(undefined, (l) => log.info(l)))) : undefined;
      if (flags.k === 0 && flags.system !== 'sp' && flags.system !== 'cot')
        log.warn('-k 0: no retrieved evidence; arguments are grounded in the case text only');
      const system = flags.system as AcalSystemName;
      const runDir = runDirFlag(flags) ?? join('runs', `acal-${system}-${flags.task}${system === 'acal' ? `-${flags.semantics}` : ''}`);
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
          indexDir: index,
          seed: flags.seed,
          concurrency: flags.concurrency,
          retryFailed: flags.retryFailed,
          iterations: flags.iterations,
          usage,
          extraConfig: { model: config.llm.model, temperature: config.llm.temperature, ...(local ? { local: compactLocal(local) } : {}) },
          signal: ac.signal,
        });
        output(
          g,
          { runDir, metrics: r.metrics, reportMd: r.reportMd, reportJson: r.reportJson, ran: r.ran, skipped: r.skipped },
          () => `${r.markdown}\nwrote ${r.reportMd}`,
        );
        await exitWhenNoItemSucceeded(runDir);
      } finally {
        process.off('SIGINT', onSig);
      }
    }),
  );
}
