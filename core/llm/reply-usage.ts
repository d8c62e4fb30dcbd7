/**
 * A completion's `usage` as numbers, read once where the reply body is read (completion-reply.ts),
 * before LangChain turns it into usage_metadata. Some servers send the counts as strings ("449") —
 * LangChain then adds 0 + "449" into "0449" and every per-step tally and token budget downstream
 * concatenates text — and some send no `total_tokens`, which LangChain keeps as 0 so CASE's
 * `--max-tokens` budget never fires. Here a numeric string becomes its number, a value that is no
 * number at all is dropped (the reply counts as without usage), and a missing total is
 * prompt + completion; a value that was not a number says so once per process on stderr.
 */
import { log } from '../log.js';

const FIELDS = ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const;

let warnedNotNumber = false;

/** A token count as a number: a non-negative number as is, a numeric string parsed, anything else undefined. */
function count(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : undefined;
  if (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return undefined;
}

/** Rewrites `body.usage` in place: counts as numbers, `total_tokens` = prompt + completion when missing. */
export function normaliseUsage(body: unknown): void {
  const usage = (body as { usage?: unknown } | null)?.usage;
  if (!usage || typeof usage !== 'object') return;
  const u = usage as Record<string, unknown>;
  const bad: string[] = [];
  for (const k of FIELDS) {
    if (u[k] === undefined || u[k] === null) continue;
    const n = count(u[k]);
    if (typeof u[k] !== 'number' || n === undefined) bad.push(`${k}: ${JSON.stringify(u[k])}`);
    if (n === undefined) delete u[k];
    else u[k] = n;
  }
  const { prompt_tokens: p, completion_tokens: c } = u as { prompt_tokens?: number; completion_tokens?: number };
  if (u.total_tokens === undefined && (p !== undefined || c !== undefined)) u.total_tokens = (p ?? 0) + (c ?? 0);
  if (bad.length && !warnedNotNumber) {
    warnedNotNumber = true;
    log.warn(`the LLM endpoint reported token usage that is not a number (${bad.join(', ')}): numeric strings are read as numbers, other values as no usage`);
  }
}
