/**
 * `lexcase run emar --dataset barexam|hearsay --split val [--limit N]`: EMAR's proponent/opponent
 * recursion with embedding convergence and a judge, over Bar Exam QA questions or LegalBench
 * hearsay examples, through the common experiment runner. The paper's benchmark (LFPBench, Chinese
 * civil cases) is not available, hence these datasets. Writes the run's report.md/json (common format plus an EMAR section).
 */
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import type { Split } from '../../../corpora/types.js';
import { CONVERGENCE_RULES, DEFAULT_CONVERGENCE, DEFAULT_EPSILON, DEFAULT_MAX_DEPTH, type ConvergenceRule } from '../../../agents/emar/convergence.js';
import type { EmarItem } from '../../../agents/emar/experiment.js';
import { errors } from '../../../core/errors.js';
import { action, output, parseIntOpt, type GlobalOpts } from '../action.js';
import { numOpt } from '../numeric-options.js';
import { addLlmOptions, resolveLlm, type LlmCliOpts } from '../llm-options.js';
import { PAPER_SAMPLING } from '../../../agents/common/paper-settings.js';
import { addRunDirOption, exitWhenNoItemSucceeded, runCommand, runDirFlag } from '../run-command.js';

/** The paper's sampling settings for EMAR. */
/** The paper's sampling settings (agents/common/paper-settings.ts: EMAR, paper 004, "Baselines": temperature 0.1, top-p 0.9, max_tokens 2048). */
export const EMAR_SAMPLING = { temperature: PAPER_SAMPLING.emar.temperature!, topP: PAPER_SAMPLING.emar.topP!, maxTokens: PAPER_SAMPLING.emar.maxTokens! };
export const EMAR_DATASETS = ['barexam', 'hearsay'] as const;

interface EmarOpts extends GlobalOpts, LlmCliOpts {
  dataset: string;
  split: string;
  limit?: number;
  seed: number;
  epsilon: number;
  maxDepth: number;
  convergence: ConvergenceRule;
  embedder: string;
  embedModel?: string;
  embedModelDir?: string;
  temperature: number;
  /** Whether --temperature was given (else the paper's value is used). */
  temperatureGiven?: boolean;
  out?: string;
  runDir?: string;
  concurrency: number;
  retryFailed?: boolean;
}

type Item = EmarItem;

async function loadItems(o: EmarOpts): Promise<Item[]> {
  let items: Item[];
  if (o.dataset === 'barexam') {
    if (!['train', 'val', 'test', 'all'].includes(o.split)) throw errors.usage(`--split for barexam must be train, val, test or all, got "${o.split}"`);
    const { loadQuestions } = await import('../../../corpora/registry.js');
    items = (await loadQuestions('barexam', o.split as Split)).map((q) => ({ ...q, kind: 'question' as const }));
  } else if (o.dataset === 'hearsay') {
    // LegalBench ships hearsay as train (5) and test (94); there is no val split.
    if (o.split !== 'train' && o.split !== 'test')
      throw errors.usage(`--split for hearsay must be train or test (LegalBench has no val split), got "${o.split}"`);
    const { loadLegalBenchTask } = await import('../../../corpora/legalbench.js');
    items = (await loadLegalBenchTask('hearsay', { split: o.split })).map((t) => ({ ...t, kind: 'task' as const }));
  } else throw errors.datasetUnknown(o.dataset, [...EMAR_DATASETS]);
  return o.limit !== undefined ? items.slice(0, o.limit) : items;
}

export async function runEmarCommand(o: EmarOpts): Promise<void> {
  if (o.offline) throw errors.usage('run emar needs an LLM; it has no offline path', 'drop --offline and configure an endpoint');
  if (o.limit !== undefined && o.limit < 1) throw errors.usage(`--limit must be a positive integer, got ${o.limit}`);
  if (!(o.epsilon > -1 && o.epsilon <= 1)) throw errors.usage(`--epsilon must be a cosine similarity in (-1, 1], got ${o.epsilon}`);
  if (!(o.maxDepth >= 1)) throw errors.usage(`--max-depth must be at least 1, got ${o.maxDepth}`);
  const items = await loadItems(o);
  const llm = await resolveLlm(o);
  const { config, usage } = llm;
  const [{ runEmarExperiment }, { createEmbedder, parseEmbedderSpec }] = await Promise.all([
    import('../../../agents/emar/experiment.js'),
    import('../../../indexer/embed/create-embedder.js'),
  ]);
  const llmCfg = {
    ...config.llm,
    temperature: o.temperature,
    topP: config.llm.topP ?? EMAR_SAMPLING.topP,
    maxTokens: config.llm.maxTokens ?? EMAR_SAMPLING.maxTokens,
  };
  const model = llm.makeModel(llmCfg);

  const embedder = await createEmbedder(parseEmbedderSpec(o.embedder, { model: o.embedModel, modelDir: o.embedModelDir }));
  const runDir = runDirFlag(o) ?? join('runs', `emar-${o.dataset}-${o.split}-s${o.seed}`);
  try {
    const {
      run,
      summary,
      markdown: md,
    } = await runEmarExperiment({
      runDir,
      dataset: o.dataset,
      split: o.split,
      limit: o.limit,
      items,
      model,
      embedder,
      epsilon: o.epsilon,
      maxDepth: o.maxDepth,
      convergence: o.convergence,
      seed: o.seed,
      usage,
      concurrency: o.concurrency,
      retryFailed: o.retryFailed,
      llm: {
        model: config.llm.model,
        temperature: llmCfg.temperature,
        topP: llmCfg.topP,
        maxTokens: llmCfg.maxTokens,
        ...(llm.local ? { local: llm.local } : {}),
      },
      sampling: {
        fromPaper: [
          ...(o.temperatureGiven ? [] : ['temperature']),
          ...(config.llm.topP === undefined ? ['topP'] : []),
          ...(config.llm.maxTokens === undefined ? ['maxTokens'] : []),
        ],
        given: [
          ...(o.temperatureGiven ? ['temperature (--temperature)'] : []),
          ...(config.llm.topP !== undefined ? ['topP (llm.topP)'] : []),
          ...(config.llm.maxTokens !== undefined ? ['maxTokens (llm.maxTokens)'] : []),
        ],
        source: PAPER_SAMPLING.emar.source,
      },
    });
    output(
      o,
      { runDir, ran: run.ran, skipped: run.skipped, tokens: usage.snapshot(), ...summary },
      () => `${md}\n\nrun dir: ${runDir} (ran ${run.ran}, resumed past ${run.skipped}, failed ${run.failed}); tokens ${usage.snapshot().total}`,
    );
    await exitWhenNoItemSucceeded(runDir);
  } finally {
    await embedder.close?.();
  }
}

export function register(program: Command): void {
  addLlmOptions(
    addRunDirOption(runCommand(program).command('emar'), 'runs/emar-<dataset>-<split>-s<seed>')
      .description('EMAR evidential multi-agent argumentation (proponent/opponent recursion to convergence, judge) on Bar Exam QA or LegalBench hearsay')
      .option('--dataset <name>', EMAR_DATASETS.join(' | '), 'barexam')
      .option('--split <split>', 'barexam: train | val | test | all; hearsay: train | test', 'val')
      .option('--limit <n>', 'first N items of the split', parseIntOpt('limit', { min: 1 }))
      .option('--seed <n>', 'run seed', parseIntOpt('seed'), 13)
      .option(
        '--epsilon <x>',
        'convergence threshold on the cosine similarity of the claims (the paper: 0.85)',
        numOpt('epsilon', { gt: -1, max: 1 }),
        DEFAULT_EPSILON,
      )
      .option('--max-depth <n>', 'maximum recursion depth (the paper: 3)', parseIntOpt('max-depth', { min: 1 }), DEFAULT_MAX_DEPTH)
      .addOption(
        new Option('--convergence <rule>', 'stop rule: stance = same option and similarity ≥ ε; embedding = similarity ≥ ε only')
          .choices([...CONVERGENCE_RULES])
          .default(DEFAULT_CONVERGENCE),
      )
      .option('--embedder <provider>', 'embedding provider for convergence: use-lite | transformers | openai', 'use-lite')
      .option('--embed-model <id>', 'embedding model id (provider-specific)')
      .option('--embed-model-dir <dir>', 'transformers: a local copy of the model')
      .option(
        '--temperature <t>',
        "sampling temperature (the paper: 0.1; top-p 0.9 and max_tokens 2048 are also the paper's)",
        numOpt('temperature', { min: 0, max: 2 }),
        EMAR_SAMPLING.temperature,
      )
      .option('--concurrency <n>', 'items run at once', parseIntOpt('concurrency', { min: 1 }), 1)
      .option('--no-retry-failed', 'on resume, keep failed items as they are (default: run them again)'),
    { offline: false },
  ).action(
    action(async (opts: EmarOpts, cmd: Command) => {
      await runEmarCommand({ ...cmd.optsWithGlobals(), ...opts, temperatureGiven: cmd.getOptionValueSource('temperature') !== 'default' });
    }),
  );
}
