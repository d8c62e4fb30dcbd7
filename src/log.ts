/**
 * Minimal leveled logger to stderr (stdout stays clean for --json). Every message passes through
 * `redact`, so API keys and bearer tokens never reach logs, traces or reports.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

let current: Level = (process.env.LEXCASE_LOG_LEVEL as Level) in order ? (process.env.LEXCASE_LOG_LEVEL as Level) : 'info';
const secrets = new Set<string>();

export function setLogLevel(level: Level): void {
  current = level;
}
export function getLogLevel(): Level {
  return current;
}

/** Register a secret value (e.g. an API key) so it is masked wherever it would be printed. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

const patterns: RegExp[] = [/\bsk-[A-Za-z0-9_\-]{8,}/g, /(Bearer\s+)[A-Za-z0-9._\-]{8,}/gi, /("?api[_-]?key"?\s*[:=]\s*"?)[^"\s,}]+/gi];

export function redact(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('***');
  out = out.replace(patterns[0], 'sk-***').replace(patterns[1], '$1***').replace(patterns[2], '$1***');
  return out;
}

/** Deep-redact a JSON-able value (for traces and reports). */
export function redactValue<T>(value: T): T {
  return JSON.parse(redact(JSON.stringify(value))) as T;
}

function emit(level: Level, args: unknown[]): void {
  if (order[level] < order[current]) return;
  const text = args.map((a) => (typeof a === 'string' ? a : a instanceof Error ? a.message : JSON.stringify(a))).join(' ');
  process.stderr.write(redact(`${level === 'info' ? '' : `[${level}] `}${text}`) + '\n');
}

export const log = {
  debug: (...a: unknown[]) => emit('debug', a),
  info: (...a: unknown[]) => emit('info', a),
  warn: (...a: unknown[]) => emit('warn', a),
  error: (...a: unknown[]) => emit('error', a),
};
