/**
 * Numbers and names read from LEXCASE_* environment variables, all the same way: unset or the empty
 * string means "not set" (the default applies); anything else must be a decimal number in range
 * (core/decimal-number.ts), else CONFIG_INVALID naming the variable and the value. `Number()` used to
 * read a blank value (" ") as 0 and `0x10` as 16, so LEXCASE_VERIFY_MAX_MB=" " silently turned
 * checksum verification off; a bad LEXCASE_PROGRESS_INTERVAL or LEXCASE_LOG_LEVEL fell back to the
 * default without a word.
 */
import { parseDecimal, parseDecimalInt } from './decimal-number.js';
import { errors } from './errors.js';

export interface EnvNumberSpec {
  /** Whole numbers only. */
  integer?: boolean;
  /** Smallest value accepted (default: none). */
  min?: number;
  /** `min` itself is refused (the value must be above it). */
  aboveMin?: boolean;
  /** What the number counts, for the message: "MiB", "seconds", "ms", "bytes". */
  unit?: string;
}

/** The variable's number, or undefined when it is unset or ""; CONFIG_INVALID naming it and its value when it is not a decimal number in range. */
export function envNumber(name: string, spec: EnvNumberSpec = {}, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = spec.integer ? parseDecimalInt(raw) : parseDecimal(raw);
  const { min, aboveMin } = spec;
  const inRange = min === undefined || (aboveMin ? n > min : n >= min);
  if (Number.isFinite(n) && inRange) return n;
  const kind = spec.integer ? 'a decimal integer' : 'a decimal number';
  const range = min === undefined ? '' : aboveMin ? (min === 0 ? ' > 0' : ` > ${min}`) : ` ≥ ${min}`;
  throw errors.configInvalid(undefined, name, `expected ${kind}${spec.unit ? ` of ${spec.unit}` : ''}${range}, got ${JSON.stringify(raw)}`);
}

/**
 * The variable's value among `allowed`, matched case-insensitively ("DEBUG" is "debug"), or undefined
 * when it is unset or ""; CONFIG_INVALID naming it, its value and the allowed values otherwise.
 */
export function envChoice<T extends string>(name: string, allowed: readonly T[], env: NodeJS.ProcessEnv = process.env): T | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const hit = allowed.find((a) => a === raw.trim().toLowerCase());
  if (hit) return hit;
  throw errors.configInvalid(undefined, name, `expected one of ${allowed.join(', ')} (any case), got ${JSON.stringify(raw)}`);
}
