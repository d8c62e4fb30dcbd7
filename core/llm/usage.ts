/**
 * Token accounting. A UsageMeter sums {input, output} tokens and counts calls and cache hits.
 * `fork()` makes a child meter whose additions also reach its parent (per-item or per-agent
 * accounting inside a run). `withUsageScope(meter, fn)` makes `meter` the current scope for
 * everything `fn` awaits (AsyncLocalStorage), so chat models created by the factory, and the test
 * fakes, attribute tokens to the item being run without agents passing meters around.
 *
 * Cache hits count as calls and as `cached`, but add no tokens: input/output are tokens actually
 * spent on the endpoint. A reply whose endpoint reported no usage (none, or 0 tokens in and out)
 * adds no tokens either and is counted as `unreported`, and a reply the endpoint cut short at its
 * token limit (finish_reason "length") as `cutShort`, so that a 0 or a truncated answer never reads
 * as measured and complete, and one its content filter stopped (finish_reason "content_filter": the
 * content may be cut or empty) as `filtered`; a reply with only a total (no prompt/completion split)
 * adds that total to `total` alone and counts as `totalOnly`, and one whose total is above its prompt +
 * completion adds the excess to `total` alone and counts as `totalAbove`; one with 0 (or no) tokens on one side
 * and some on the other counts as `oneSided` (that side is undercounted). A reply that carried several choices
 * (a server that ignores `n`) counts as `multiChoice`, its choices in `choicesCarried`: the first
 * was read, and its usage, which covers the whole reply, is counted once. These fields are present only when non-zero.
 * `promptCached` is the exception: the input tokens the endpoint said its own prompt cache served
 * (`usage.prompt_tokens_details.cached_tokens`), present — 0 included — once a reply said it, and
 * absent when none did (not reported is not 0).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
/** Tokens one call, item or run spent (also the `tokens` field of results.jsonl). */
export interface TokenUsage {
  input: number;
  output: number;
  total: number;
  calls: number;
  cached: number;
  /** Calls whose endpoint reported no token usage (their tokens are not in input/output/total). */
  unreported?: number;
  /** Calls whose reply the endpoint cut short at its token limit (finish_reason "length"). */
  cutShort?: number;
  /** Calls whose reply the endpoint's content filter stopped (finish_reason "content_filter"). */
  filtered?: number;
  /** Calls whose endpoint reported only `total_tokens` (no prompt/completion split): their tokens are in `total`, not in input/output. */
  totalOnly?: number;
  /**
   * Calls whose endpoint reported a `total_tokens` above prompt + completion (a thinking model's
   * reasoning counted in the total alone, as gateways in front of Gemini do): the excess is in
   * `total`, not in input/output. Before, the total was prompt + completion, and the excess was lost.
   */
  totalAbove?: number;
  /**
   * Calls whose endpoint reported usage with one side 0 or missing (0 prompt tokens beside completion
   * tokens, as Ollama sent for a cached prompt; no completion_tokens): that side is undercounted in
   * input/output/total, and token budgets cannot count it. Before, read as 0 without a word.
   */
  oneSided?: number;
  /**
   * Replies that carried more than one choice (a server that ignores `n`, or sends several when
   * n = 1 was asked): the first choice was read, the others were not. Cache hits included.
   */
  multiChoice?: number;
  /** The choices those replies carried in all (`multiChoice` replies, each with two or more). */
  choicesCarried?: number;
  /**
   * Replies whose text named another answer (option letter or Yes/No) than the one read: a forced call's content
   * ("Answer: C" beside {"answer": "B"}), a reasoning field or the prose around a JSON object ("so the answer is No"
   * beside {"decision": "Yes"}); the call or field was read (text-beside-call.ts).
   */
  textOtherAnswer?: number;
  /**
   * Requests still in flight when their item ended (a sibling call failed it), cut off: recorded
   * `abandoned` in llm/<item>.jsonl, not in `calls`, and what the endpoint spent on them is in no
   * total (the runner counts them from the item's exchanges).
   */
  abandoned?: number;
  /**
   * Requests answered with an error instead of a reply after their retries (HTTP 400, a timeout, …):
   * recorded with `error` in llm/<item>.jsonl, not in `calls`, and what the endpoint spent on them
   * is in no total (the runner counts them from the item's exchanges, as `abandoned`).
   */
  refused?: number;
  /**
   * Failed attempts that were sent again (HTTP 429/5xx, a timeout, a connection error, a malformed
   * body): not in `calls`, and what the endpoint spent on them (a timed-out attempt may have been
   * processed in full) is in no total (the runner counts them from the item's exchanges' `retries`).
   */
  retried?: number;
  /**
   * Tokens of cache hits whose reply an earlier attempt of this run paid for (a run killed and
   * resumed with the same cache dir): the stored usage of entries written after the run started
   * and before this attempt did. Not in input/output/total (this attempt spent none on them).
   */
  earlierAttempts?: number;
  /**
   * Of `input`, the tokens the endpoint said it read from its own prompt cache
   * (`usage.prompt_tokens_details.cached_tokens`: OpenAI, vLLM, llama.cpp's server), summed over the
   * replies that said it: present (0 included) once one did, absent when none did — not reported,
   * not 0. They are in input/total (the endpoint processed them, at its cached rate); lexcase's own
   * response cache (`cached`) is another thing.
   */
  promptCached?: number;
}

/** A run's start and this attempt's (ISO times): a cache entry written between them was paid for by an earlier attempt of the run. */
export interface AttemptWindow {
  runStart: string;
  attemptStart: string;
  /**
   * Exchange keys (record-replay.ts `exchangeKey`) of the requests the failed attempt this retry
   * replaces got a reply to (its llm/<item>.jsonl): their tokens are in the line's
   * `replacedAttempts`, so a cache hit on one is not counted again in `earlierAttempts`.
   */
  paidByReplaced?: ReadonlySet<string>;
  /**
   * [start, stop] (ISO times) of the earlier attempts a Ctrl-C or SIGTERM stopped that recorded the
   * tokens their items under way had been answered with (config.json `interrupts[].tokens`): a cache
   * hit on a reply written then is in that figure already, so it is not counted again in
   * `earlierAttempts` (before, report.md showed the same tokens in both rows).
   */
  countedAtStop?: readonly (readonly [string, string])[];
}

export interface UsageDelta {
  input: number;
  output: number;
  cached?: boolean;
  /** The endpoint reported no usage for this reply. */
  unreported?: boolean;
  /** The endpoint stopped this reply at its token limit. */
  cutShort?: boolean;
  /** The endpoint's content filter stopped this reply. */
  filtered?: boolean;
  /** The endpoint reported only this total for the reply (no prompt/completion split). */
  totalOnly?: number;
  /** The tokens the endpoint's total_tokens reported above prompt + completion for the reply. */
  totalAbove?: number;
  /** The endpoint reported 0 (or no) tokens for one side of the reply's usage and some for the other. */
  oneSided?: boolean;
  /** The choices the reply carried, when more than one (only the first was read). */
  choices?: number;
  /** A cache hit an earlier attempt of this run paid for: the tokens it then spent. */
  earlierAttempt?: number;
  /** Of `input`, the tokens the endpoint said its prompt cache served; undefined when it did not say. */
  promptCached?: number;
}

/** The optional counters of TokenUsage a reply adds to; absent when 0. */
const COUNTERS = ['unreported', 'cutShort', 'filtered', 'totalOnly', 'totalAbove', 'oneSided'] as const;
/** The optional counters addUsage sums: those and the requests cut off or refused (counted by the runner, not by a reply). */
const SUMMED = [...COUNTERS, 'multiChoice', 'choicesCarried', 'textOtherAnswer', 'abandoned', 'refused', 'retried', 'earlierAttempts'] as const;

export const emptyUsage = (): TokenUsage => ({ input: 0, output: 0, total: 0, calls: 0, cached: 0 });

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    total: a.total + b.total,
    calls: a.calls + b.calls,
    cached: a.cached + b.cached,
    ...Object.fromEntries(SUMMED.map((k) => [k, (a[k] ?? 0) + (b[k] ?? 0)]).filter(([, v]) => v)),
    // reported by either: kept, 0 included; by neither: absent
    ...(a.promptCached !== undefined || b.promptCached !== undefined ? { promptCached: (a.promptCached ?? 0) + (b.promptCached ?? 0) } : {}),
  };
}

export class UsageMeter {
  private u: TokenUsage = emptyUsage();
  /** Set on a run's item meters (eval/runner.ts): which cache hits an earlier attempt of the run paid for. */
  window?: AttemptWindow;
  constructor(readonly parent?: UsageMeter) {}

  /** The attempt window of this meter or its nearest ancestor that has one. */
  attemptWindow(): AttemptWindow | undefined {
    for (let m: UsageMeter | undefined = this; m; m = m.parent) if (m.window) return m.window;
    return undefined;
  }

  add(d: UsageDelta): void {
    for (let m: UsageMeter | undefined = this; m; m = m.parent) {
      m.u.calls += 1;
      for (const k of COUNTERS) if (d[k]) m.u[k] = (m.u[k] ?? 0) + 1;
      if (d.choices && d.choices > 1) {
        m.u.multiChoice = (m.u.multiChoice ?? 0) + 1;
        m.u.choicesCarried = (m.u.choicesCarried ?? 0) + d.choices;
      }
      if (d.cached) {
        m.u.cached += 1;
        if (d.earlierAttempt) m.u.earlierAttempts = (m.u.earlierAttempts ?? 0) + d.earlierAttempt;
        continue;
      }
      // counts are numbers where a reply is read or read back (reply-usage.ts)
      m.u.input += d.input;
      m.u.output += d.output;
      m.u.total += d.input + d.output + (d.totalOnly ?? 0) + (d.totalAbove ?? 0);
      if (d.promptCached !== undefined) m.u.promptCached = (m.u.promptCached ?? 0) + d.promptCached;
    }
  }

  /** Count a reply's flag found when it was read (not a call): on this meter and its ancestors. */
  note(k: 'textOtherAnswer'): void {
    for (let m: UsageMeter | undefined = this; m; m = m.parent) m.u[k] = (m.u[k] ?? 0) + 1;
  }

  snapshot(): TokenUsage {
    return { ...this.u };
  }

  /** A child meter: what is added to it is also added to this meter. */
  fork(): UsageMeter {
    return new UsageMeter(this);
  }

  /** True when `other` is this meter or one of its ancestors. */
  descendsFrom(other: UsageMeter): boolean {
    for (let m: UsageMeter | undefined = this; m; m = m.parent) if (m === other) return true;
    return false;
  }
}

const scope = new AsyncLocalStorage<UsageMeter>();

/** Run `fn` with `meter` as the current usage scope (nested scopes: the innermost wins). */
export function withUsageScope<T>(meter: UsageMeter, fn: () => T): T {
  return scope.run(meter, fn);
}

export function currentUsageScope(): UsageMeter | undefined {
  return scope.getStore();
}

/**
 * Record one model call on `meter` (the model's own meter, if any) and on the current scope,
 * counting it once per meter even when one descends from the other.
 */
export function recordUsage(d: UsageDelta, meter?: UsageMeter): void {
  const scoped = currentUsageScope();
  const targets = [meter, scoped].filter((m): m is UsageMeter => !!m);
  // Drop a meter that another target already reaches through its parent chain.
  const unique = targets.filter((m, i) => targets.indexOf(m) === i);
  const leaves = unique.filter((m) => !unique.some((o) => o !== m && o.descendsFrom(m)));
  for (const m of leaves) m.add(d);
}
