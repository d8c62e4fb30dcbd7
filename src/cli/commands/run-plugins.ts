/**
 * `lexcase run <id>` for every system of the one list (agents/systems.ts), built from its plugin's
 * flag schema (`cli`, eval/cli-schema.ts): its flags in order (a shared group such as the run
 * options where `{ group: 'run' }` stands), `--run-dir` (first unless a group has it), `--limit` /
 * `--index` as the plugin's `run` says when no flag declares them, and the LLM flags when `cli.llm`
 * (--offline listed only when it is 'optional'). The commands are registered in id order, so
 * `lexcase run --help` lists them alphabetically. The action loads the plugin (`load()`) and hands
 * the parsed flags and an LLM resolver to its `cliRun` (agents/<system>/cli-run.ts), which checks
 * its own flags, runs and gives what is printed; a plugin with only a `run` gets the generic
 * command: the model resolved here, the run, the report written, a one-line summary.
 */
import { Option, type Command } from 'commander';
import type { SystemPlugin } from '../../../eval/systems.js';
import { flagKey, schemaFlags, type CliFlag, type CliSchema } from '../../../eval/cli-schema.js';
import { AGENT_SYSTEMS } from '../../../agents/systems.js';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { runCountsText } from '../../../eval/run-counts.js';
import { withLexcaseSystem } from '../../../eval/lexcase-system-scope.js';
import { action, output, parseUniqueListOpt, type GlobalOpts } from '../action.js';
import { addLlmOptions, resolveLlm, type LlmCliOpts } from '../llm-options.js';
import { intOpt, isSeedFlagName, numOpt, seedOpt, type NumericRange } from '../numeric-options.js';
import { addRunDirOption, exitWhenNoItemSucceeded, runCommand, runDirFlag } from '../run-command.js';
import { reportRunInterrupt } from '../run-interrupt.js';

type PluginWithCli = SystemPlugin & { cli: CliSchema };

/** The range of an int / number flag (non-negative when it gives none). */
function rangeOf(f: CliFlag): NumericRange | undefined {
  if (f.min === undefined && f.max === undefined && f.gt === undefined) return undefined;
  return { ...(f.min !== undefined ? { min: f.min } : {}), ...(f.max !== undefined ? { max: f.max } : {}), ...(f.gt !== undefined ? { gt: f.gt } : {}) };
}

/** The commander option of one schema flag (`defaultRunDir` completes the --run-dir help). */
export function flagOption(f: CliFlag, defaultRunDir?: string): Option {
  const long = f.type === 'negatable' ? `--no-${f.name}` : `--${f.name}`;
  const names = f.short ? `-${f.short}, ${long}` : long;
  const takesValue = f.type !== 'boolean' && f.type !== 'negatable';
  const description = f.name === 'run-dir' && defaultRunDir ? `${f.description} (default ${defaultRunDir})` : f.description;
  const o = new Option(takesValue ? `${names} <${f.arg ?? 'value'}>` : names, description);
  if (f.choices) o.choices([...f.choices]);
  if (f.type === 'int') o.argParser(isSeedFlagName(f.name) ? seedOpt(f.name) : intOpt(f.name, rangeOf(f)));
  if (f.type === 'number') o.argParser(numOpt(f.name, rangeOf(f)));
  // a list's entries must differ (`--scenarios arguable,arguable` ran arguable once and recorded it once, with no word)
  if (f.type === 'list') o.argParser(parseUniqueListOpt(`--${f.name} entry`));
  // a list default is shown as --help shows a list value (`a,b`), not as JSON (`["a","b"]`)
  if (f.default !== undefined && f.type !== 'negatable') {
    if (Array.isArray(f.default)) o.default([...f.default], f.default.join(','));
    else o.default(f.default);
  }
  if (f.required) o.makeOptionMandatory();
  return o;
}

/** Registers `lexcase run <plugin.id>` from the plugin's schema. */
export function registerPluginCommand(program: Command, p: PluginWithCli): Command {
  const flags = schemaFlags(p.cli);
  const has = (name: string) => flags.some((f) => f.name === name);
  let cmd = runCommand(program).command(p.id).description(p.cli.description);
  if (!has('run-dir')) addRunDirOption(cmd, p.cli.defaultRunDir);
  for (const f of flags) cmd.addOption(flagOption(f, p.cli.defaultRunDir));
  if (p.run?.limit === 'limit' && !has('limit')) cmd.addOption(flagOption({ name: 'limit', arg: 'n', description: 'first N items', type: 'int', min: 1 }));
  if (p.run?.takesIndex && !has('index'))
    cmd.addOption(flagOption({ name: 'index', arg: 'dir', description: 'index directory (default: the bundled index)', type: 'string' }));
  if (p.cli.llm) cmd = addLlmOptions(cmd, p.cli.llm === 'optional' ? {} : { offline: false });
  return cmd.action(
    action(async (opts: GlobalOpts & LlmCliOpts & Record<string, unknown>, c: Command) => {
      const all = { ...c.optsWithGlobals(), ...opts } as GlobalOpts & LlmCliOpts & Record<string, unknown>;
      // Ctrl-C / SIGTERM: what is saved, the run dir and the command that resumes; exit 130 / 143 (run-interrupt.ts)
      const interrupt = reportRunInterrupt(process.argv.slice(2));
      warnOtherSystemsFlags(flags, all, c);
      try {
        // its runs are recorded as this system's (provenance.lexcaseSystem), also where its run() does not say so
        await withLexcaseSystem(p.id, () => runPlugin(p, flags, all, c));
      } finally {
        interrupt.dispose();
      }
    }),
  );
}

/**
 * A flag only some `--system` values read (CliFlag `systems`), given with another: said, as it is
 * dropped (config.json records it, and nothing reads it). Before, each system kept its own table of
 * them (MAD's and ACAL's cli-run.ts), and a system added without one dropped such flags without a word.
 */
function warnOtherSystemsFlags(flags: readonly CliFlag[], all: Record<string, unknown>, c: Command): void {
  const system = all.system;
  if (typeof system !== 'string') return;
  for (const f of flags) {
    if (!f.systems || f.systems.includes(system)) continue;
    const source = c.getOptionValueSource(flagKey(f.name));
    if (source === undefined || source === 'default') continue;
    const shown = f.short ? `-${f.short}` : f.type === 'negatable' ? `--no-${f.name}` : `--${f.name}`;
    log.warn(`${shown} is ignored: it applies to --system ${f.systems.join(' and ')}, not ${system}${f.ignored ? ` (${system} ${f.ignored})` : ''}`);
  }
}

/** The action of `lexcase run <p.id>`: the plugin's cliRun, or the generic run of its run(). */
async function runPlugin(p: PluginWithCli, flags: CliFlag[], all: GlobalOpts & LlmCliOpts & Record<string, unknown>, c: Command): Promise<void> {
  const mod = await p.load();
  if (mod.cliRun) {
    const r = await mod.cliRun({
      flags: all,
      given: (name) => {
        const source = c.getOptionValueSource(flagKey(name));
        return source !== undefined && source !== 'default';
      },
      // the preflight is made once the run dir has accepted the run: a refused resume sends no request (core/llm/deferred-preflight.ts)
      resolveLlm: (o) => resolveLlm(all, { ...o, preflight: 'deferred' }),
    });
    output(all, r.json, r.human);
    for (const dir of r.runDirs) await exitWhenNoItemSucceeded(dir);
    return;
  }
  if (!mod.run) throw errors.usage(`run ${p.id}: the system's plugin has no run`, 'its plugin.ts load() must give cliRun() or run()');
  const runDir = runDirFlag(all as { runDir?: string }) ?? p.cli.defaultRunDir;
  let model: unknown;
  if (p.cli.llm) {
    if (all.offline && p.cli.llm !== 'optional')
      throw errors.usage(`run ${p.id} needs an LLM; it has no offline path`, 'drop --offline and configure an endpoint');
    model = (await resolveLlm(all, { paper: p.id in p.paper ? p.id : undefined, preflight: 'deferred' })).model;
  }
  const parsed = Object.fromEntries([...flags.map((f) => flagKey(f.name)), 'limit', 'index'].filter((k) => all[k] !== undefined).map((k) => [k, all[k]]));
  const { writeReport } = await import('../../../eval/report/write-report.js');
  // the report under the run dir's lock, where the run passes `whileLocked` to runExperiment (before, always after the lock was released)
  let report: Awaited<ReturnType<typeof writeReport>> | undefined;
  const whileLocked = async () => {
    report = await writeReport(runDir);
  };
  const r = await mod.run({ runDir, flags: parsed, model, whileLocked });
  report ??= await writeReport(runDir);
  output(all, { runDir, ...r, sections: report.sections.map((s) => s.id) }, () => `run dir: ${runDir}: ${runCountsText(r)}; report: ${runDir}/report.md`);
  await exitWhenNoItemSucceeded(runDir);
}

/** `lexcase run <id>` for every listed system with a schema, in id order. */
export function register(program: Command): void {
  const withCli = AGENT_SYSTEMS.filter((p): p is PluginWithCli => p.cli !== undefined);
  for (const p of [...withCli].sort((a, b) => a.id.localeCompare(b.id, 'en'))) registerPluginCommand(program, p);
}
