/**
 * `lexcase run <id>` for every system of the one list (agents/systems.ts) that has no hand-written
 * command file: the command is built from the plugin's flag schema (`cli`), the shared run-dir flag,
 * `--limit` / `--index` as the plugin's `run` says, and the LLM flags when `cli.llm`. The action
 * loads the plugin (`load()`), runs it into the run dir and writes its report (with the system's own
 * section). command-groups.ts loads this module after the hand-written `run` commands, so a system
 * with its own file keeps it (the five systems and the baselines have one).
 */
import { Option, type Command } from 'commander';
import type { CliFlag, SystemPlugin } from '../../../eval/systems.js';
import { AGENT_SYSTEMS } from '../../../agents/systems.js';
import { errors } from '../../../core/errors.js';
import { action, output, parseIntOpt, type GlobalOpts } from '../action.js';
import { addLlmOptions, type LlmCliOpts } from '../llm-options.js';
import { numOpt } from '../numeric-options.js';
import { addRunDirOption, exitWhenNoItemSucceeded, runCommand, runDirFlag } from '../run-command.js';

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The commander option of one schema flag. */
export function flagOption(f: CliFlag): Option {
  const o = new Option(f.type === 'boolean' ? `--${f.name}` : `--${f.name} <value>`, f.description);
  if (f.choices) o.choices([...f.choices]);
  if (f.type === 'int') o.argParser(parseIntOpt(f.name));
  if (f.type === 'number') o.argParser(numOpt(f.name, { min: -Infinity }));
  if (f.default !== undefined) o.default(f.default);
  return o;
}

/** Registers `lexcase run <plugin.id>` from the plugin's schema. */
export function registerPluginCommand(program: Command, p: SystemPlugin & { cli: NonNullable<SystemPlugin['cli']> }): void {
  let cmd = addRunDirOption(runCommand(program).command(p.id), p.cli.defaultRunDir).description(p.cli.description);
  for (const f of p.cli.flags) cmd.addOption(flagOption(f));
  if (p.run?.limit === 'limit') cmd.option('--limit <n>', 'first N items', parseIntOpt('limit', { min: 1 }));
  if (p.run?.takesIndex) cmd.option('--index <dir>', 'index directory (default: the bundled index)');
  if (p.cli.llm) cmd = addLlmOptions(cmd, { offline: false });
  cmd.action(
    action(async (opts: GlobalOpts & LlmCliOpts & Record<string, unknown>, c: Command) => {
      const all = { ...c.optsWithGlobals(), ...opts } as GlobalOpts & LlmCliOpts & Record<string, unknown>;
      const runDir = runDirFlag(all as { runDir?: string }) ?? p.cli.defaultRunDir;
      const mod = await p.load();
      if (!mod.run) throw errors.usage(`run ${p.id}: the system's plugin has no run`, 'its plugin.ts load() must give run()');
      let model: unknown;
      if (p.cli.llm) {
        if (all.offline) throw errors.usage(`run ${p.id} needs an LLM; it has no offline path`, 'drop --offline and configure an endpoint');
        const { resolveLlm } = await import('../llm-options.js');
        model = (await resolveLlm(all, { paper: p.id in p.paper ? p.id : undefined })).model;
      }
      const flags = Object.fromEntries(
        [...p.cli.flags.map((f) => camel(f.name)), 'limit', 'index'].filter((k) => all[k] !== undefined).map((k) => [k, all[k]]),
      );
      const r = await mod.run({ runDir, flags, model });
      const { writeReport } = await import('../../../eval/report/write-report.js');
      const report = await writeReport(runDir);
      output(
        all,
        { runDir, ...r, sections: report.sections.map((s) => s.id) },
        () => `run dir: ${runDir} (ran ${r.ran}, resumed past ${r.skipped}, failed ${r.failed}); report: ${runDir}/report.md`,
      );
      await exitWhenNoItemSucceeded(runDir);
    }),
  );
}

/** Every listed system with a schema and no command registered yet (a hand-written one wins). */
export function register(program: Command): void {
  const taken = new Set(runCommand(program).commands.map((c) => c.name()));
  for (const p of AGENT_SYSTEMS) if (p.cli && !taken.has(p.id)) registerPluginCommand(program, p as SystemPlugin & { cli: NonNullable<SystemPlugin['cli']> });
}
