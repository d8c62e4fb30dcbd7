/**
 * Minimal leveled logger to stderr (stdout stays clean for --json). Every message passes through
 * `redact`, so API keys and bearer tokens never reach logs, traces or reports, and through
 * `terminalText`, so an error quoting a model's reply (`got "…"`) cannot send the terminal an
 * escape sequence: its control characters are printed as `\u001b`.
 */
import { envChoice } from './env-number.js';
import { maskSecrets } from './secrets.js';
import { terminalText } from './terminal-text.js';
import { redactUrlsInText } from './url-credentials.js';
import { withoutKeyedQueryDigests } from './older-query-digest.js';

export type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** LEXCASE_LOG_LEVEL (debug, info, warn, error or silent, any case), if set; CONFIG_INVALID naming it and its value otherwise. */
export function logLevelFromEnv(env: NodeJS.ProcessEnv = process.env): Level | undefined {
  return envChoice('LEXCASE_LOG_LEVEL', Object.keys(order) as Level[], env);
}

/** Set on globalThis by the CLI's entry (src/cli/main.ts) before it loads a command: the CLI refuses a bad LEXCASE_LOG_LEVEL itself. */
export const CLI_ENTRY = Symbol.for('lexcase.cli-entry');

/** The level at load (levelAtLoad, at the end of this module); `info` until then. */
let current: Level = 'info';

export function setLogLevel(level: Level): void {
  current = level;
}
export function getLogLevel(): Level {
  return current;
}

export { registerSecret } from './secrets.js';
export { redactValue } from './redact-value.js';

const patterns: RegExp[] = [/\bsk-[A-Za-z0-9_\-]{8,}/g, /(Bearer\s+)[A-Za-z0-9._\-]{8,}/gi, /("?api[_-]?key"?\s*[:=]\s*"?)[^"\s,}]+/gi];

/**
 * Mask secrets in free text (log lines, error messages): registered secrets (core/secrets.ts, as
 * whole tokens), key-like patterns (sk-..., Bearer tokens, apikey=...) and the credentials of
 * every URL in the text (userinfo, query values: url-credentials.ts), and an older index's query
 * digest over a key's value (older-query-digest.ts). For JSON values use
 * `redactValue`, which never rewrites serialised JSON.
 */
export function redact(text: string): string {
  let out = redactUrlsInText(maskSecrets(withoutKeyedQueryDigests(text)));
  out = out.replace(patterns[0], 'sk-***').replace(patterns[1], '$1***').replace(patterns[2], '$1***');
  return out;
}

function emit(level: Level, args: unknown[]): void {
  if (order[level] < order[current]) return;
  const text = args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? a.message : JSON.stringify(a))).join(' ');
  process.stderr.write(terminalText(redact(`${level === 'info' ? '' : `[${level}] `}${text}`)) + '\n');
}

export const log = {
  debug: (...a: unknown[]) => emit('debug', a),
  info: (...a: unknown[]) => emit('info', a),
  warn: (...a: unknown[]) => emit('warn', a),
  error: (...a: unknown[]) => emit('error', a),
};

/** The once-per-process warnings already said (warnOnce), by key. */
const warnedOnce = new Set<string>();

/**
 * Say `message()` as a warning the first time `key` is warned of in this process, and never again
 * (a server quirk met on every reply: said once, counted elsewhere). Marked as said even when the log
 * level hides it, as a process that logs nothing never says it later.
 */
export function warnOnce(key: string, message: () => string): void {
  if (warnedOnce.has(key)) return;
  warnedOnce.add(key);
  log.warn(message());
}

/** Forget which once-per-process warnings were said: a test file in a shared worker starts as a fresh process (tests/support/shared-state-setup.ts). */
export function resetWarnedOnce(): void {
  warnedOnce.clear();
}

/**
 * The level at load. A bad LEXCASE_LOG_LEVEL leaves `info` (so the refusal itself can be logged):
 * every CLI command then refuses it (src/cli/action.ts); a library caller — `import … from
 * 'lexcase'` or a subpath, which load this module — gets one warning on stderr naming the variable,
 * its value and the accepted levels. It is a warning, not CONFIG_INVALID, because this runs while
 * the module is imported: a throw there fails the program's static `import` itself, before any of
 * its code can catch it, for a setting that only chooses how much is logged. Before, the library
 * logged at `info` without a word.
 */
function levelAtLoad(): Level {
  try {
    return logLevelFromEnv() ?? 'info';
  } catch (e) {
    if (!(globalThis as Record<symbol, unknown>)[CLI_ENTRY]) process.stderr.write(redact(`[warn] ${(e as Error).message}; logging at info`) + '\n');
    return 'info';
  }
}
current = levelAtLoad();
