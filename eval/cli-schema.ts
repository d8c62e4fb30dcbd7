/**
 * A system's `lexcase run <id>` command as data (the `cli` of its agents/<system>/plugin.ts): its
 * flags in help order, named option groups shared by several systems (RUN_OPTIONS: the dataset /
 * split / k / seed / limit / run-dir / concurrency options of CASE, its baselines and MAD), whether
 * it needs a chat model, and what its run hands back to print. src/cli/commands/run-plugins.ts
 * builds every `run <id>` command from it; eval holds the types because eval cannot import agents
 * and src cannot be imported by them.
 */
import type { ResolvedLlm } from '../core/llm/resolved-llm.js';
import { DEFAULT_K } from '../retrieval/default-k.js';

/** One flag of a system's `lexcase run <id>` command, as data (src/cli/commands/run-plugins.ts builds the option from it). */
export interface CliFlag {
  /** The long flag without dashes: 'dataset' → `--dataset <value>`; parsed into the camelCase key ('split-seed' → splitSeed). */
  name: string;
  /** A one-letter short flag: 'k' → `-k, --k <n>`. */
  short?: string;
  /** The value's name in the help: 'n' → `--limit <n>` (default 'value'). */
  arg?: string;
  description: string;
  /**
   * 'boolean': `--name` (true when given); 'negatable': `--no-name` (the key `name` is true unless
   * it is given); 'list': a comma-separated list (string[]); 'int' / 'number': parsed and checked
   * against min / max / gt (commander prints the range when a value is out of it).
   */
  type: 'string' | 'int' | 'number' | 'boolean' | 'negatable' | 'list';
  default?: string | number | boolean | readonly string[];
  /** Values commander accepts (listed in the help); a value outside them is refused before the run. */
  choices?: readonly string[];
  /** int / number: smallest allowed value (inclusive; an int is ≥ 0 unless min or gt says otherwise). */
  min?: number;
  /** int / number: largest allowed value (inclusive). */
  max?: number;
  /** int / number: values must be greater than this. */
  gt?: number;
  /** The command refuses to run without it (`required option '--mode <mode>' not specified`). */
  required?: boolean;
  /**
   * The `--system` values that read it (MAD's --rounds: ['mad']); absent, every one. Given with another
   * system, `lexcase run` warns `--rounds is ignored: it applies to --system mad, not single-rag`
   * (src/cli/commands/run-plugins.ts), and `ignored` is said after it: "(cot searches nothing; …)".
   */
  systems?: readonly string[];
  /** With `systems`: what the flag not applying means, after the other system's name ("searches nothing; config.json's k is unused"). */
  ignored?: string;
}

/** A named group of flags several systems share, placed where `{ group }` stands in a schema's flags. */
export interface CliGroupRef {
  group: keyof typeof CLI_OPTION_GROUPS;
}

/** A system's `lexcase run <id>` command as a schema. */
export interface CliSchema {
  description: string;
  /** The run dir when --run-dir is not given (for the help text). */
  defaultRunDir: string;
  /**
   * Whether it needs a chat model (the shared LLM flags are added): false: none; true: it needs
   * one and has no offline path (--offline is hidden, and refused); 'optional': it has an offline
   * path (--offline is listed and its run gets no model with it).
   */
  llm: boolean | 'optional';
  /** The flags in help order; a `{ group }` entry stands for a shared group. --run-dir comes first unless a group has it; --limit / --index follow when the system's `run` says so and no flag declares them. */
  flags: readonly (CliFlag | CliGroupRef)[];
}

/**
 * The dataset / split / retrieval / run options CASE, its baselines and MAD share (`{ group: 'run' }`).
 * The run dir's help names the schema's `defaultRunDir`.
 */
export const RUN_OPTIONS: readonly CliFlag[] = [
  { name: 'dataset', arg: 'name', description: 'dataset', type: 'string', default: 'barexam' },
  { name: 'split', arg: 'split', description: 'train | val | test | all', type: 'string', default: 'val' },
  { name: 'split-seed', arg: 'n', description: 'seed of the dataset split', type: 'int', default: 13 },
  {
    name: 'dataset-file',
    arg: 'file',
    description:
      "read the dataset's questions from this file (JSONL or CSV, the bundled copy's fields) instead of the bundled copy; its seeded split as for the bundled one (--split all: every question)",
    type: 'string',
  },
  { name: 'index', arg: 'dir', description: 'index directory (default: the bundled default index, built if absent)', type: 'string' },
  {
    name: 'k',
    short: 'k',
    arg: 'n',
    description: 'passages a search returns (CASE: each advocate keeps up to k; a RAG baseline: k in its context)',
    type: 'int',
    min: 1,
    default: DEFAULT_K,
  },
  {
    name: 'seed',
    arg: 'n',
    description: "run seed (jury panels, presentation orders, tie draws; not the report's bootstrap: `lexcase report --seed`)",
    type: 'int',
    default: 13,
  },
  { name: 'limit', arg: 'n', description: 'only the first N questions of the split', type: 'int', min: 1 },
  { name: 'run-dir', arg: 'dir', description: 'run directory', type: 'string' },
  { name: 'concurrency', arg: 'n', description: 'questions run at once', type: 'int', min: 1, default: 1 },
  { name: 'retry-failed', description: 'on resume, keep failed items as they are (default: run them again)', type: 'negatable' },
];

/** The shared option groups by name. */
export const CLI_OPTION_GROUPS = { run: RUN_OPTIONS } as const satisfies Record<string, readonly CliFlag[]>;

export const isGroupRef = (f: CliFlag | CliGroupRef): f is CliGroupRef => 'group' in f;

/** A schema's flags with its groups spelled out, in help order. */
export function schemaFlags(s: Pick<CliSchema, 'flags'>): CliFlag[] {
  return s.flags.flatMap((f) => (isGroupRef(f) ? CLI_OPTION_GROUPS[f.group] : [f]));
}

/** The key a flag's value is parsed into: 'split-seed' → 'splitSeed'. */
export const flagKey = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** What `lexcase run <id>` hands a system's `cliRun` (agents/<system>/cli-run.ts). */
export interface CliRunContext {
  /** The parsed flags (camelCase keys: the schema's, its groups', --run-dir and the LLM flags); `offline` when --offline was given. */
  flags: Readonly<Record<string, unknown>>;
  /** Whether a flag was given on the command line (not its default): `given('temperature')`. */
  given(name: string): boolean;
  /**
   * The chat model from the LLM flags, config file and environment (src/cli/llm-options.ts); `paper`: use that system's
   * published sampling settings where unset; `sampling`: values the system's own flags gave (they win over file and env);
   * `samplingFlags`: the sampling keys the system has a flag for, given or not (named in the logged paper-values line).
   */
  resolveLlm(o?: {
    paper?: string;
    sampling?: { temperature?: number; topP?: number; maxTokens?: number };
    samplingFlags?: readonly ('temperature' | 'topP' | 'maxTokens')[];
  }): Promise<ResolvedLlm>;
}

/** What a system's `cliRun` gives the command to print: the `--json` object, the human text, and the run dirs whose exit status it reports (exit 1 when no item of one succeeded). */
export interface CliRunResult {
  json: unknown;
  human(): string;
  runDirs: readonly string[];
}
