/**
 * The Command class of every `lexcase` command (the root makes its subcommands with it through
 * createCommand). It changes two of commander's messages:
 * - an unknown option is named first, with the closest known option of the command (core/did-you-mean):
 *   `lexcase search q --indx idx` says `unknown option '--indx' — did you mean --index?`, where
 *   commander would first say `required option '--index <dir>' not specified`;
 * - a missing required option is reported only when no unknown option explains it.
 */
import { Command, type Option } from 'commander';
import { closestName } from '../../core/did-you-mean.js';

/** Long and short flags of `cmd` and its ancestors (the global flags). */
function knownFlags(cmd: Command): string[] {
  const out: string[] = ['--help', '-h'];
  for (let c: Command | null = cmd; c; c = c.parent) for (const o of c.options) for (const f of [o.long, o.short]) if (f) out.push(f);
  return out;
}

function firstUnknownFlag(cmd: Command): string | undefined {
  const known = new Set(knownFlags(cmd));
  return cmd.args.map((a) => a.split('=')[0]).find((a) => /^--?[A-Za-z]/.test(a) && !known.has(a));
}

export class LexcaseCommand extends Command {
  override createCommand(name?: string): Command {
    return new LexcaseCommand(name);
  }

  /** commander's hook for an option it does not know (overridden: did-you-mean from core/did-you-mean.ts). */
  unknownOption(flag: string): void {
    const near = flag.startsWith('--')
      ? closestName(
          flag.slice(2),
          knownFlags(this)
            .filter((f) => f.startsWith('--'))
            .map((f) => f.slice(2)),
        )
      : undefined;
    this.error(`error: unknown option '${flag}'${near ? ` — did you mean --${near}?` : ''}`, { code: 'commander.unknownOption' });
  }

  /** commander's hook for a required option left out: an unknown option (a typo of it) is reported instead. */
  missingMandatoryOptionValue(option: Option): void {
    const unknown = firstUnknownFlag(this);
    if (unknown) this.unknownOption(unknown);
    else this.error(`error: required option '${option.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' });
  }
}
