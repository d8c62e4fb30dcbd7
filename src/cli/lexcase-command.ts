/**
 * The Command class of every `lexcase` command (the root makes its subcommands with it through
 * createCommand). It changes two of commander's messages:
 * - an unknown option is named first, with the closest known option of the command (core/did-you-mean):
 *   `lexcase search q --indx idx` says `unknown option '--indx' — did you mean --index?`, where
 *   commander would first say `required option '--index <dir>' not specified`;
 * - a missing required option is reported only when no unknown option explains it;
 * and it adds two checks on every option, so no command can miss them:
 * - an option that takes one value, given twice, stops with one error naming both values
 *   (`lexcase search q -k 5 -k 50`: `option '-k, --k <n>' given twice (5, then 50): give it once`),
 *   where commander would silently keep the last; options that collect their values (a parser marked
 *   with `collecting`, e.g. `serve --index A --index B`) and flags without a value repeat freely;
 * - a value parser that throws anything else than commander's InvalidArgumentError (a LexcaseError
 *   such as `parseTieMode`'s) gives commander's one-line "argument … is invalid" message, not a stack trace.
 */
import { Command, InvalidArgumentError, type Option } from 'commander';
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

const COLLECTS = Symbol.for('lexcase.collectingOption');

/** Marks a value parser that collects the values of a repeated option (`--index A --index B` → [A, B]): such an option may repeat. */
export function collecting<F extends (value: string, previous: never) => unknown>(parse: F): F {
  return Object.assign(parse, { [COLLECTS]: true });
}

/** True for an option that may be given more than once: a flag without a value, variadic, or one whose parser collects. */
const repeatable = (o: Option): boolean => (!o.required && !o.optional) || o.variadic || !!(o.parseArg as { [COLLECTS]?: boolean } | undefined)?.[COLLECTS];

/** `parse` with any error it throws turned into commander's InvalidArgumentError (its message kept, less an "invalid --flag: " prefix). */
function asInvalidArgument<F extends (value: string, previous: never) => unknown>(parse: F): F {
  const wrapped = function (this: unknown, value: string, previous: unknown) {
    try {
      return parse.call(this, value, previous as never);
    } catch (e) {
      if ((e as { code?: string })?.code === 'commander.invalidArgument') throw e;
      throw new InvalidArgumentError(String((e as Error)?.message ?? e).replace(/^invalid [^:\s]+: /, ''));
    }
  };
  // keep what is attached to the parser (numeric-options' range, read by tests walking the program)
  return Object.assign(wrapped, parse) as unknown as F;
}

export class LexcaseCommand extends Command {
  /** The raw values given for each option in the current parse, by attribute name. */
  private given = new Map<string, string[]>();

  override createCommand(name?: string): Command {
    return new LexcaseCommand(name);
  }

  override addOption(option: Option): this {
    const once = !repeatable(option);
    if (option.parseArg) option.parseArg = asInvalidArgument(option.parseArg as (value: string, previous: never) => unknown) as typeof option.parseArg;
    super.addOption(option);
    if (once)
      this.on(`option:${option.name()}`, (value: string) => {
        const key = option.attributeName();
        const seen = [...(this.given.get(key) ?? []), value];
        this.given.set(key, seen);
        if (seen.length > 1)
          this.error(`error: option '${option.flags}' given ${seen.length === 2 ? 'twice' : `${seen.length} times`} (${seen.join(', then ')}): give it once`, {
            code: 'commander.repeatedOption',
          });
      });
    return this;
  }

  override parseOptions(args: string[]): { operands: string[]; unknown: string[] } {
    this.given = new Map();
    return super.parseOptions(args);
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
