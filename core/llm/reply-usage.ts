/**
 * A completion's `usage` as numbers, read once where the reply body is read (completion-reply.ts),
 * before LangChain turns it into usage_metadata. Some servers send the counts as strings ("449") —
 * LangChain then adds 0 + "449" into "0449" and every per-step tally and token budget downstream
 * concatenates text — and some send no `total_tokens`, which LangChain keeps as 0 so CASE's
 * `--max-tokens` budget never fires. Here a string of digits becomes its number, a value that is no
 * whole number (text, or a fraction such as 12.5) is dropped (the reply counts as without usage), and
 * a missing total is prompt + completion; a value that was not a whole number says so once per
 * process on stderr.
 *
 * A reply read back — from the response cache (disk-cache.ts) or a recorded run (stored-reply.ts) —
 * gets the same reading of its stored counts (`storedCounts`): an entry written before this module
 * existed holds what LangChain made of string counts ("0449" in usage_metadata and
 * llmOutput.tokenUsage). So every count that reaches a usage meter, a per-step tally or a token
 * budget is a number, and core/llm/usage.ts adds them as they are.
 *
 * `usage.prompt_tokens_details.cached_tokens` — the prompt tokens the server read from its own
 * prompt cache (OpenAI, vLLM, llama.cpp's server) — is read the same way, and kept only when it is a
 * count of at most `prompt_tokens`: a fraction, text, a negative number or more than the prompt is
 * dropped (the reply counts as not saying it) and said once per process on stderr.
 */
import { warnOnce } from '../log.js';

const FIELDS = ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const;

/**
 * A token count as a number: a whole non-negative number as is, a string of digits parsed, anything
 * else undefined — a fraction (`12.5`, `"12.5"`) too: no tokenizer counts half a token, so the
 * server's figure is not a count, and it is dropped as text is rather than summed into the meter.
 */
function count(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 ? v : undefined;
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v) && Number.isSafeInteger(Number(v))) return Number(v);
  return undefined;
}

/** Rewrites `fields` of `u` in place as counts (a field that is no count is deleted); returns the fields that were not numbers. */
function countFields(u: Record<string, unknown>, fields: readonly string[]): string[] {
  const bad: string[] = [];
  for (const k of fields) {
    if (u[k] === undefined || u[k] === null) continue;
    const n = count(u[k]);
    if (typeof u[k] !== 'number' || n === undefined) bad.push(`${k}: ${JSON.stringify(u[k])}`);
    if (n === undefined) delete u[k];
    else u[k] = n;
  }
  return bad;
}

/** Where a stored reply keeps its counts: a message's usage_metadata, a result's llmOutput.tokenUsage. */
const STORED_FIELDS = {
  usage_metadata: ['input_tokens', 'output_tokens', 'total_tokens'],
  tokenUsage: ['promptTokens', 'completionTokens', 'totalTokens'],
} as const;

/** A copy of a stored reply's counts (`kind`: where they were kept) as numbers, read as `normaliseUsage` reads a reply's; undefined stays undefined. */
export function storedCounts<T>(counts: T, kind: keyof typeof STORED_FIELDS): T {
  if (!counts || typeof counts !== 'object') return counts;
  const u = { ...(counts as Record<string, unknown>) };
  countFields(u, STORED_FIELDS[kind]);
  return u as T;
}

/** Rewrites `body.usage` in place: counts as numbers, `total_tokens` = prompt + completion when missing or below them. */
export function normaliseUsage(body: unknown): void {
  const usage = (body as { usage?: unknown } | null)?.usage;
  if (!usage || typeof usage !== 'object') return;
  const u = usage as Record<string, unknown>;
  readOtherNames(u);
  const bad = countFields(u, FIELDS);
  const { prompt_tokens: p, completion_tokens: c } = u as { prompt_tokens?: number; completion_tokens?: number };
  if (u.total_tokens === undefined && (p !== undefined || c !== undefined)) u.total_tokens = (p ?? 0) + (c ?? 0);
  // a total below prompt + completion (no real reply costs less than its parts): the per-step and per-stage
  // tallies and a --max-tokens budget read the total, the run's meter the parts, so the two disagreed
  // (CASE's stage rows summed below its total, with an "other" row for the gap) and a budget ran long
  else if (typeof u.total_tokens === 'number' && u.total_tokens < (p ?? 0) + (c ?? 0)) {
    const given = u.total_tokens;
    u.total_tokens = (p ?? 0) + (c ?? 0);
    warnOnce(
      'llm.totalBelow',
      () =>
        `the LLM endpoint reported total_tokens ${given} below its prompt_tokens + completion_tokens (${p ?? 0} + ${c ?? 0}): counted as ${u.total_tokens}, their sum, wherever tokens are counted`,
    );
  }
  if (bad.length)
    warnOnce(
      'llm.notNumber',
      () =>
        `the LLM endpoint reported token usage that is not a whole number (${bad.join(', ')}): strings of digits are read as numbers, other values (a fraction, text) as no usage`,
    );
  normalisePromptCached(u, p);
}

/**
 * Counts under the Responses API's and Anthropic's names (`input_tokens`, `output_tokens`), which
 * some proxies put in a chat completion's usage: read as prompt_tokens and completion_tokens where
 * those are absent, said once per process. Before, such a reply counted as total-only (its
 * total_tokens) and the end-of-run line said the server gave no split.
 */
function readOtherNames(u: Record<string, unknown>): void {
  const named: string[] = [];
  for (const [other, ours] of [
    ['input_tokens', 'prompt_tokens'],
    ['output_tokens', 'completion_tokens'],
  ] as const)
    if ((u[ours] === undefined || u[ours] === null) && u[other] !== undefined && u[other] !== null) {
      u[ours] = u[other];
      named.push(`${other} as ${ours}`);
    }
  if (named.length) warnOnce('llm.otherUsageNames', () => `the LLM endpoint reported token usage under other names: read ${named.join(' and ')}`);
}

/**
 * `prompt_tokens_details.cached_tokens` as a count of at most `prompt_tokens` (p), or deleted: a
 * value that is no whole number, or more than the prompt, is not a share of it.
 */
function normalisePromptCached(u: Record<string, unknown>, p: number | undefined): void {
  const details = u.prompt_tokens_details;
  if (!details || typeof details !== 'object') return;
  const d = details as Record<string, unknown>;
  const v = d.cached_tokens;
  if (v === undefined || v === null) return;
  const n = count(v);
  if (n !== undefined && (p === undefined || n <= p)) {
    d.cached_tokens = n;
    return;
  }
  delete d.cached_tokens;
  warnOnce('llm.promptCached', () => {
    const why = n === undefined ? 'not a whole number' : `more than its prompt_tokens ${p}`;
    return `the LLM endpoint reported prompt-cache tokens that are ${why} (prompt_tokens_details.cached_tokens: ${JSON.stringify(v)}): dropped, such replies count as not saying what the server's prompt cache served`;
  });
}
