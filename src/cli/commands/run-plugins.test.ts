/**
 * Every `lexcase run <id>` is built from its plugin's flag schema (issue 39 item 1): each system of
 * the one list (agents/systems.ts) declares `cli`, its load() gives the run the command calls, every
 * flag of the schema (its shared groups spelled out) is an option of `run <id>` and shows in its
 * help with the schema's default and choices, and no hand-written src/cli/commands/run-<id>.ts is left.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { AGENT_SYSTEMS } from '../../../agents/systems.js';
import { flagKey, schemaFlags, type CliFlag } from '../../../eval/cli-schema.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { buildProgram } from '../program.js';

const runCmd = (): Command => buildProgram().commands.find((c) => c.name() === 'run')!;

/** The option of `cmd` a schema flag stands for (`--no-<name>` for a negatable one). */
const optionOf = (cmd: Command, f: CliFlag): Option | undefined =>
  cmd.options.find((o) => o.long === (f.type === 'negatable' ? `--no-${f.name}` : `--${f.name}`));

describe('lexcase run <id> from the plugins of agents/systems.ts', () => {
  it('every system of the list declares its command as a schema, and its load() gives the run', async () => {
    expect(AGENT_SYSTEMS.map((p) => p.id).sort()).toEqual(['acal', 'baseline', 'case', 'emar', 'mad', 'threeply']);
    for (const p of AGENT_SYSTEMS) {
      expect(p.cli, p.id).toBeDefined();
      const mod = await p.load();
      expect(typeof (mod.cliRun ?? mod.run), p.id).toBe('function');
    }
  });

  it('`run --help` lists every system with its schema description, and `run <id> --help` every flag with its default and choices', () => {
    const run = runCmd();
    const listed = run.helpInformation().replace(/\s+/g, ' ');
    for (const p of AGENT_SYSTEMS) {
      expect(listed, p.id).toContain(`${p.id} [options] ${p.cli!.description}`);
      const cmd = run.commands.find((c) => c.name() === p.id)!;
      const help = cmd.helpInformation().replace(/\s+/g, ' ');
      const flags = schemaFlags(p.cli!);
      // the shared run options stand as one group in the schema, spelled out in the command
      if (p.cli!.flags.some((f) => 'group' in f)) expect(flags.map((f) => f.name)).toEqual(expect.arrayContaining(['dataset', 'split-seed', 'retry-failed']));
      for (const f of flags) {
        const o = optionOf(cmd, f);
        expect(o, `${p.id} --${f.name}`).toBeDefined();
        expect(help).toContain(o!.flags);
        expect(o!.attributeName()).toBe(flagKey(f.name));
        expect(o!.mandatory, `${p.id} --${f.name} required`).toBe(f.required === true);
        if (f.name !== 'run-dir') expect(help).toContain(f.description.replace(/\s+/g, ' '));
        if (f.default !== undefined && f.type !== 'negatable')
          expect(help).toContain(`default: ${Array.isArray(f.default) ? f.default.join(',') : JSON.stringify(f.default)}`);
        if (f.choices) expect(help).toContain(`choices: ${f.choices.map((c) => JSON.stringify(c)).join(', ')}`);
      }
      expect(help).toContain(`run directory (default ${p.cli!.defaultRunDir})`);
      // --offline is listed only for a system with an offline path
      expect(help.includes('--offline'), p.id).toBe(p.cli!.llm === 'optional');
    }
  });

  it('no hand-written command file is left for any system', () => {
    for (const p of AGENT_SYSTEMS) expect(existsSync(fileURLToPath(new URL(`./run-${p.id}.ts`, import.meta.url))), p.id).toBe(false);
  });

  it('the schema is enforced before any run: a required flag, an int range, a choice', async () => {
    const missing = await runCli(['run', 'baseline', '--limit', '1']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("required option '--mode <mode>' not specified");
    const rounds = await runCli(['run', 'mad', '--rounds', '4']);
    expect(rounds.code).toBe(1);
    expect(rounds.stderr).toContain("option '--rounds <n>' argument '4' is invalid. expected an integer from 1 to 3");
    const rule = await runCli(['run', 'emar', '--convergence', 'cosine']);
    expect(rule.code).toBe(1);
    expect(rule.stderr).toContain("argument 'cosine' is invalid. Allowed choices are stance, embedding.");
  });
});
