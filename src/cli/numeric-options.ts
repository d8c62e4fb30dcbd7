/**
 * The one parser for numeric CLI options. Every option that takes a number goes through
 * `intOpt` / `numOpt`: a value that is not a number, or is out of range, becomes commander's
 * InvalidArgumentError, which commander prints as one line naming the option
 * (`error: option '--port <n>' argument 'abc' is invalid. expected an integer from 0 to 65535`)
 * and exits 1 before the command runs, so nothing is written and no stack trace is printed.
 *
 *   .option('-k, --k <n>', 'number of hits', intOpt('k', { min: 1 }), 10)
 *   .option('--b <x>', 'BM25 b', numOpt('b', { min: 0, max: 1 }))
 *
 * Each parser carries its range (`numericSpec`), so tests can walk the program and check every
 * numeric option of every command.
 */
import { InvalidArgumentError } from 'commander';
import { MAX_RESAMPLES, MIN_RESAMPLES } from '../../eval/stats/settings.js';
import { parseDecimal, parseDecimalInt } from '../../core/decimal-number.js';
import { MAX_SEED } from '../../core/rng.js';

export interface NumericRange {
  /** Smallest allowed value (inclusive). */
  min?: number;
  /** Largest allowed value (inclusive). */
  max?: number;
  /** Values must be greater than this (exclusive lower bound), e.g. 0 for "positive". */
  gt?: number;
}

export interface NumericSpec extends NumericRange {
  name: string;
  integer: boolean;
}

const SPEC = Symbol.for('lexcase.numericOption');

export type NumericParser = ((value: string) => number) & { [SPEC]: NumericSpec };

/** The range of a parser made by intOpt/numOpt (undefined for any other function). */
export function numericSpec(parser: unknown): NumericSpec | undefined {
  return typeof parser === 'function' ? (parser as Partial<NumericParser>)[SPEC] : undefined;
}

/** "an integer ≥ 1", "a number from 0 to 1", "a number > 0". */
export function describeRange(s: Omit<NumericSpec, 'name'>): string {
  const what = s.integer ? 'an integer' : 'a number';
  const lo = s.gt !== undefined ? `> ${s.gt}` : s.min !== undefined ? `≥ ${s.min}` : undefined;
  if (s.min !== undefined && s.max !== undefined && s.gt === undefined) return `${what} from ${s.min} to ${s.max}`;
  if (lo && s.max !== undefined) return `${what} ${lo} and ≤ ${s.max}`;
  if (lo) return `${what} ${lo}`;
  if (s.max !== undefined) return `${what} ≤ ${s.max}`;
  return what;
}

function make(name: string, integer: boolean, range: NumericRange): NumericParser {
  const spec: NumericSpec = { name, integer, ...range };
  const parse = (value: string): number => {
    // decimal notation only: `--rrf-k 0x3c` ran at 60, `--b 0b1` at 1
    const n = integer ? parseDecimalInt(value) : parseDecimal(value);
    const ok =
      Number.isFinite(n) &&
      (range.min === undefined || n >= range.min) &&
      (range.max === undefined || n <= range.max) &&
      (range.gt === undefined || n > range.gt);
    if (!ok) throw new InvalidArgumentError(`expected ${describeRange(spec)}.`);
    return n;
  };
  return Object.assign(parse, { [SPEC]: spec });
}

/** Parser for an integer option; by default non-negative. */
export function intOpt(name: string, range: NumericRange = { min: 0 }): NumericParser {
  return make(name, true, range);
}

/** `--iterations` of every command that runs a bootstrap: MIN_RESAMPLES..MAX_RESAMPLES (eval/stats/settings.ts; 1 resample printed a collapsed "95% interval"). */
export function resamplesOpt(): NumericParser {
  return make('iterations', true, { min: MIN_RESAMPLES, max: MAX_RESAMPLES });
}

/** A seed option (`--seed`, `--split-seed`): an integer from 0 to MAX_SEED (core/rng.ts; draws use its 32 bits, so 4294967297 drew as 1). */
export function seedOpt(name: string): NumericParser {
  return make(name, true, { min: 0, max: MAX_SEED });
}

/** Whether a schema flag named `name` is a seed (`seed`, `split-seed`): its parser is seedOpt. */
export function isSeedFlagName(name: string): boolean {
  return name === 'seed' || name.endsWith('-seed');
}

/** Parser for a (finite, possibly fractional) number option; by default non-negative. */
export function numOpt(name: string, range: NumericRange = { min: 0 }): NumericParser {
  return make(name, false, range);
}
