/**
 * Record and replay of LLM exchanges, so a run made against a real model can be shared and re-run
 * (re-scored, re-reported) by anyone with no endpoint.
 *
 * Recording: the experiment runner opens an ExchangeLog per item (`withExchangeLog`, through
 * AsyncLocalStorage like the usage scope); every request a factory model answers inside it — from
 * the endpoint, from the response cache, or with a final error after the retries — is appended as
 * an Exchange: the wire request (messages and parameters; never headers, so never a key), the reply
 * generations with their usage, or the error. The runner writes them to `<runDir>/llm/`.
 *
 * Each exchange also carries what the explorer's LLM-call inspector shows and a replay does not
 * match on: the step that made it (`stage`, from `withCall`: invokeStructured names it by its
 * `what`), the parse or schema-validation error of its reply (`invalid`, set by invokeStructured),
 * its latency and start time (`ms`, `at`; a replay keeps the recorded ones).
 *
 * Replay: a model made with `createChatModel(cfg, { replayFrom: dir })` never opens a connection.
 * The runner loads the recorded exchanges of each item into its log, and the model answers each
 * request with the recorded exchange of the same request (`exchangeKey`: the wire messages and the
 * request parameters, without the model name and sampling settings, which the recording fixes):
 * the same reply, the same usage, the same cache-hit flag, or the same error. Identical requests in
 * one item are served in their recorded order. A request the recording does not hold stops the run
 * with LLM_REPLAY_MISMATCH (the flags, prompts, index or lexcase version differ from the recording). *
 * Content check: each exchange is written with `hash` (`exchangeHashes`): the sha256 of its request
 * (key, wire messages, parameters) and of its reply (generations with their usage, llmOutput, the
 * error, the cache-hit flag), each over canonical JSON (keys sorted) of what the file holds. A
 * replay recomputes both and refuses a line that differs or has none (LLM_RECORDING_ALTERED, with
 * the file and line): a replay serves what the model answered, never an edited vote or token count.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { errors, isLexcaseError, LexcaseError, type ErrorCode } from '../errors.js';
import type { StoredGeneration } from './disk-cache.js';

export interface Exchange {
  /**
   * Order of the request in its item (0-based): its position in the item's steps (ExchangeLog
   * `ordered`: calls in turn, concurrent branches — inCallBranches — by branch, each branch's calls
   * in turn), not the order the replies came back in.
   */
  n: number;
  /** exchangeKey of the request. */
  key: string;
  request: { messages: unknown; params: Record<string, unknown> };
  /** Answered from the response cache in the recorded run. */
  cached?: boolean;
  reply?: { generations: StoredGeneration[]; llmOutput?: Record<string, unknown> };
  /** The request's final failure (after the retries). */
  error?: { code?: string; message: string };
  /**
   * The request was still in flight when its item ended (a sibling call failed the item) and was cut
   * off: no reply, no tokens counted (what the endpoint spent on it, if anything, is in no total). A
   * replay serves it as it happened: no reply until the item ends.
   */
  abandoned?: true;
  /**
   * Of an `abandoned` request: it never got its concurrency slot (llm.concurrency) before its item
   * ended, so nothing reached the server; not counted as cut off (eval/runner.ts).
   */
  unsent?: true;
  /** The step that made the request (withCall), when it named itself. */
  stage?: string;
  /**
   * Failed attempts of this request that were sent again (HTTP 429/5xx, a timeout, a connection
   * error, a malformed body: retry.ts), when any: not in `calls`, and what the endpoint spent on them
   * (a timed-out attempt may have been processed in full) is in no total. The runner counts them in
   * the item's `tokens.retried`.
   */
  retries?: number;
  /** Why the reply was refused by its reader (parse or schema validation), when it was. */
  invalid?: string;
  /** Numbers of the reply its reader clamped into the schema's bounds (bound-repair.ts), when any. */
  repaired?: string[];
  /**
   * Latency of the request in ms, from its first attempt's send to the reply (endpoint or cache,
   * retries and their backoff included), and when it was asked (`at`). Lines written before
   * 2026-11-30 counted the wait for a concurrency slot in `ms` too.
   */
  ms?: number;
  /** How long it waited for a concurrency slot (llm.concurrency) before its first attempt was sent; absent when it waited none. */
  queuedMs?: number;
  at?: string;
  /** sha256 of the request and of the reply as written (`exchangeHashes`); a replay refuses a line that does not match. */
  hash?: { request: string; reply: string };
}

/** JSON with object keys sorted at every level (undefined dropped): one text per value. */
function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : val,
  );
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The content hashes of an exchange: its request (key, messages, parameters) and its reply (reply with usage, error, cache flag). */
export function exchangeHashes(x: Exchange): { request: string; reply: string } {
  return {
    request: sha256(canonicalJson({ key: x.key, request: x.request })),
    reply: sha256(canonicalJson({ cached: x.cached === true, reply: x.reply ?? null, error: x.error ?? null, ...(x.abandoned ? { abandoned: true } : {}) })),
  };
}

/** One named call of a step: the exchange it recorded (if any) is attached when recorded. */
export interface CallScope {
  stage: string;
  exchange?: Exchange;
}
const callScope = new AsyncLocalStorage<CallScope>();

/** Run `fn` as one call of the step `stage`; the exchange it records gets the stage, and `fn` may annotate it. */
export function withCall<T>(stage: string, fn: (call: CallScope) => T): T {
  const c: CallScope = { stage };
  return callScope.run(c, () => fn(c));
}

/** Request parameters a replay does not match on: the recording fixes the model and its sampling. */
const NOT_MATCHED = new Set(['model', 'temperature', 'top_p', 'max_tokens', 'max_completion_tokens']);

/** The key a replay matches a request on (sha256 of the wire messages and the matched parameters). */
export function exchangeKey(prompt: string, llmKey: string): string {
  const params = Object.fromEntries(Object.entries(JSON.parse(llmKey) as Record<string, unknown>).filter(([k]) => !NOT_MATCHED.has(k)));
  return createHash('sha256').update(prompt).update('\0').update(JSON.stringify(params)).digest('hex');
}

/** The abort reason the runner ends an item's calls still in flight with (its outcome is known): such a call is recorded `abandoned`. */
export class ItemEndedError extends Error {
  override readonly name = 'AbortError';
  constructor(readonly itemId: string) {
    super(`item ${itemId} ended while this request was in flight: cut off, no reply, its tokens (if any) are in no total`);
  }
}

export const isItemEnded = (reason: unknown): reason is ItemEndedError => reason instanceof ItemEndedError;

/**
 * Where a call stands among an item's calls: `path` of the concurrent branch it runs in (empty at
 * the item's top level), `next` the number of the next call made (or branch group started) there.
 */
interface OrderScope {
  log: ExchangeLog;
  path: number[];
  next: number;
}
const orderScope = new AsyncLocalStorage<OrderScope>();

const comparePositions = (a: readonly number[], b: readonly number[]): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
};

/**
 * `fn` for each of `items` at once (Promise.all), each as a branch of the current item's calls: the
 * calls of branch i are logged after every call made before the group and after those of branches
 * 0…i−1, before every call made after the group — whichever reply comes back first. Without it, a
 * system's concurrent calls (MAD's debaters of one round, ACAL's team members) were numbered, and
 * written to llm/<item>.jsonl, in the order their replies arrived: two identical runs at
 * llm.concurrency > 1 wrote different logs.
 */
export function inCallBranches<T, R>(items: readonly T[], fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const log = scope.getStore();
  if (!log) return Promise.all(items.map(fn));
  const parent = log.scopeHere();
  const group = parent.next++;
  return Promise.all(items.map((x, i) => orderScope.run({ log, path: [...parent.path, group, i], next: 0 }, () => fn(x, i))));
}

/** One item's exchanges: those recorded while it runs, and (replaying) the recorded ones it is served from. */
export class ExchangeLog {
  readonly recorded: Exchange[] = [];
  /** Each recorded exchange's position among the item's calls (inCallBranches). */
  private readonly positions = new Map<Exchange, number[]>();
  private readonly top: OrderScope = { log: this, path: [], next: 0 };
  /** The first request the recording did not hold (a system may catch the error; the runner must not). */
  mismatch?: Error;
  private readonly queue = new Map<string, Exchange[]>();
  private inFlight = 0;
  /**
   * Requests of the item sent to the endpoint so far (each attempt: the first and every retry), answered
   * or not: what the item spent if it is never recorded (a SIGINT, src/cli/run-interrupt.ts).
   */
  sent = 0;
  /** Called at each request sent, after `sent` is counted (the runner keeps it on disk: eval/sent-journal.ts). */
  onSent?: () => void;
  private idle: (() => void)[] = [];

  constructor(
    readonly itemId: string,
    /** The recording to serve from (replay); undefined when recording a live run. */
    readonly replay?: { dir: string; exchanges: Exchange[] },
  ) {
    for (const x of replay?.exchanges ?? []) {
      const q = this.queue.get(x.key) ?? [];
      q.push(x);
      this.queue.set(x.key, q);
    }
  }

  /** The order scope of the code running now in this item (its branch, or the item's top level). */
  scopeHere(): OrderScope {
    const s = orderScope.getStore();
    return s?.log === this ? s : this.top;
  }

  record(x: Omit<Exchange, 'n'>): Exchange {
    const call = callScope.getStore();
    const e: Exchange = { n: this.recorded.length, ...(call ? { stage: call.stage } : {}), ...x };
    const here = this.scopeHere();
    this.positions.set(e, [...here.path, here.next++]);
    this.recorded.push(e);
    if (call) call.exchange = e;
    return e;
  }

  /**
   * The recorded exchanges in the order of the item's steps, `n` renumbered so: calls in turn, the
   * calls of concurrent branches (inCallBranches) by branch — the same for two runs of the same item,
   * whatever order the replies arrived in.
   */
  ordered(): Exchange[] {
    const out = [...this.recorded].sort((a, b) => comparePositions(this.positions.get(a)!, this.positions.get(b)!));
    out.forEach((x, i) => (x.n = i));
    return out;
  }

  /** Run one request (`run`) as in flight until it settles: `settled()` waits for every such request. */
  async track<T>(run: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await run();
    } finally {
      if (--this.inFlight === 0) for (const f of this.idle.splice(0)) f();
    }
  }

  /** One request of the item sent to the endpoint (an attempt: the first or a retry). */
  noteSent(): void {
    this.sent++;
    this.onSent?.();
  }

  /** Resolves when no request of the item is in flight (at once when none is). */
  settled(): Promise<void> {
    return this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve));
  }

  /** The next recorded exchange of this request; throws LLM_REPLAY_MISMATCH when there is none. */
  take(key: string, what: () => string): Exchange {
    const x = this.queue.get(key)?.shift();
    if (!x) {
      const dir = this.replay?.dir ?? '(no recording)';
      const held = this.replay?.exchanges.length ?? 0;
      this.mismatch ??= errors.llmReplayMismatch(
        dir,
        this.itemId,
        `request ${this.recorded.length + 1} is not in the recording (${held} exchange(s) recorded for this item): ${what()}`,
      );
      throw this.mismatch;
    }
    return x;
  }
}

const scope = new AsyncLocalStorage<ExchangeLog>();

/** Run `fn` with `log` as the current item's exchange log. */
export function withExchangeLog<T>(log: ExchangeLog, fn: () => T): T {
  return scope.run(log, fn);
}

export function currentExchangeLog(): ExchangeLog | undefined {
  return scope.getStore();
}

export function storeError(e: unknown): Exchange['error'] {
  return { ...(isLexcaseError(e) ? { code: e.code } : {}), message: (e as Error)?.message ?? String(e) };
}

/** The recorded error, thrown again with the same code and message. */
export function restoreError(err: NonNullable<Exchange['error']>): Error {
  if (!err.code) return new Error(err.message);
  const e = new LexcaseError(err.code as ErrorCode, '');
  e.message = err.message;
  return e;
}
