/**
 * Shared CLI plumbing: every command's action goes through `action()`, which sets up --json /
 * --quiet / --debug, prints LexcaseErrors as one clear message and exits non-zero. The log level and
 * progress switch those flags set are put back when the command ends, so a program that runs
 * several commands in one process (the library, an in-process test) gets each with its own flags.
 */
import { InvalidArgumentError } from 'commander';
import { errorMessage, isLexcaseError } from '../../core/errors.js';
import { exitCodeOfSignal } from '../../core/interrupt.js';
import { getLogLevel, log, logLevelFromEnv, redact, setLogLevel } from '../../core/log.js';
import { terminalText } from '../../core/terminal-text.js';
import { isProgressEnabled, progressIntervalFromEnv, progressModeFromEnv, setProgressEnabled } from '../../core/progress.js';
import { intOpt, type NumericParser, type NumericRange } from './numeric-options.js';

export interface GlobalOpts {
  json?: boolean;
  quiet?: boolean;
  debug?: boolean;
}

/** Print a result: JSON to stdout with --json, else the human text. */
export function output(opts: GlobalOpts, json: unknown, human: () => string): void {
  if (opts.json) process.stdout.write(JSON.stringify(json, null, 2) + '\n');
  else process.stdout.write(human() + '\n');
}

/** Integer option parser (non-negative unless a range is given); see ./numeric-options.ts. */
export function parseIntOpt(name: string, range?: NumericRange): NumericParser {
  return intOpt(name, range);
}

export function parseListOpt(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Refuse a bad LEXCASE_LOG_LEVEL / LEXCASE_PROGRESS / LEXCASE_PROGRESS_INTERVAL before the command starts (it used to fall back to the default without a word). */
function checkEnvSettings(): void {
  logLevelFromEnv();
  progressModeFromEnv();
  progressIntervalFromEnv();
}

/**
 * A comma list whose items must differ (`--method bm25,qld`): a repeated one is refused naming it
 * (`--method bm25,bm25` printed the same row twice).
 */
export function parseUniqueListOpt(what: string): (v: string) => string[] {
  return (v: string) => {
    const list = parseListOpt(v);
    const again = list.find((x, i) => list.indexOf(x) !== i);
    if (again !== undefined) throw new InvalidArgumentError(`${what} "${again}" is listed twice: list each ${what} once.`);
    return list;
  };
}

/**
 * The exit status of a failed command: 1, or for a step stopped by Ctrl-C / SIGTERM (INTERRUPTED) the
 * shell's 128 + signal number (130, 143: core/interrupt.ts exitCodeOfSignal), as `run <system>` and `eval run` exit.
 */
export function exitCodeOf(e: unknown): number {
  const signal = isLexcaseError(e) && e.code === 'INTERRUPTED' ? e.details.signal : undefined;
  return signal ? exitCodeOfSignal(signal) : 1;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function action<A extends any[]>(fn: (...args: A) => Promise<void> | void) {
  return async (...args: A): Promise<void> => {
    // commander passes (...positionals, opts, command); merge globals from the root program.
    const cmd = args[args.length - 1] as { optsWithGlobals?: () => GlobalOpts };
    const opts: GlobalOpts = cmd?.optsWithGlobals ? cmd.optsWithGlobals() : {};
    const before = { level: getLogLevel(), progress: isProgressEnabled() };
    if (opts.debug) setLogLevel('debug');
    else if (opts.quiet || opts.json) setLogLevel('warn');
    if (opts.json || opts.quiet) setProgressEnabled(false);
    try {
      checkEnvSettings();
      await fn(...args);
    } catch (e) {
      if (isLexcaseError(e)) {
        log.error(e.message);
        if (opts.debug && e.stack) process.stderr.write(terminalText(redact(e.stack)) + '\n');
      } else {
        const err = e as Error;
        log.error(errorMessage(err));
        if (opts.debug && err?.stack) process.stderr.write(terminalText(redact(err.stack)) + '\n');
        else process.stderr.write('(run with --debug for a stack trace)\n');
      }
      process.exitCode = exitCodeOf(e);
    } finally {
      setLogLevel(before.level);
      setProgressEnabled(before.progress);
    }
  };
}
