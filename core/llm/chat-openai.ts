/**
 * ChatOpenAI (@langchain/openai) with lexcase's plumbing around every request:
 *  1. on-disk response cache keyed by the endpoint (endpoint.ts: base URL without credentials, and
 *     the provider) and the full wire request (model, messages incl. tool calls and tool results,
 *     sampling parameters, bound tools) — a hit makes no HTTP request;
 *  2. a concurrency limit shared by the model and every copy made by bindTools/withConfig;
 *  3. retries with exponential backoff on 429/5xx/timeouts/connection errors/malformed bodies
 *     (the client's own retries are off so there is one policy);
 *  4. token accounting into the model's UsageMeter and the current usage scope.
 * Streaming is disabled (stream() falls back to one request) so every call takes this path.
 *
 * Each attempt gets its own AbortSignal linked to the caller's: the OpenAI SDK adds an 'abort'
 * listener to the signal of every request and never removes it, so passing one long-lived run
 * signal through retries leaked listeners (MaxListenersExceededWarning under faults). That signal
 * also carries the attempt's wall-clock deadline (`timeoutMs`, deadline.ts), which covers the
 * headers, the body and any stream. Replies to a
 * json_schema request are parsed by lexcase (structured.ts), not by the SDK's `parse()`, which
 * throws on a reply that is not JSON and would lose it (`completions` below uses `create`).
 * A reply whose tool calls all have malformed arguments is converted with those calls as
 * `invalid_tool_calls` only: LangChain would also keep them as raw `additional_kwargs.tool_calls`,
 * which makes every AIMessage built from it print "New LangChain packages are available..." on
 * stderr (a notice meant for old integrations), and would send dangling tool-call ids back.
 */
import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import type { AIMessage, BaseMessage } from '@langchain/core/messages';
import { makeInvalidToolCall, parseToolCall } from '@langchain/core/output_parsers/openai_tools';
import type { ChatGeneration, ChatResult } from '@langchain/core/outputs';
import { ChatOpenAI, ChatOpenAICompletions, convertMessagesToCompletionsMessageParams, wrapOpenAIClientError, type ChatOpenAIFields } from '@langchain/openai';
import type { LimitFunction } from 'p-limit';
import { errors } from '../errors.js';
import { log, warnOnce } from '../log.js';
import type { DiskCache } from './disk-cache.js';
import { rememberCacheEntry } from './cache-validation.js';
import { readCompletion } from './completion-reply.js';
import { withDeadline } from './deadline.js';
import { currentExchangeLog, exchangeKey, isItemEnded, restoreError, storeError, type ExchangeLog } from './record-replay.js';
import { restoreReply, storeReply } from './stored-reply.js';
import { distinctReplyIds } from './reply-ids.js';
import { withRetries } from './retry.js';
import { everyModelHears, type Hearing, type ServerIdentity } from './server-identity.js';
import type { StructuredOutputSetting } from './structured.js';
import { CACHED_MARK } from './spent-tokens.js';
import { currentUsageScope, recordUsage, type UsageMeter } from './usage.js';

export interface LlmStats {
  /** HTTP requests sent (attempts, including retries). */
  requests: number;
  /** Failed attempts sent again (counted when the retry is sent, not when it is scheduled). */
  retries: number;
  cacheHits: number;
  /** Most requests in flight at once. */
  maxInFlight: number;
  inFlight: number;
}

/** State shared by a factory-made model and all its bound copies. */
export interface LexcaseModelShared extends StructuredOutputSetting {
  usage?: UsageMeter;
  cache?: DiskCache;
  limit: LimitFunction;
  retry: { maxRetries: number; baseMs: number; maxMs: number };
  stats: LlmStats;
  /** Replay the run recorded in this dir (record-replay.ts): never contact the endpoint. */
  replayFrom?: string;
  /** Which server answers (endpoint.ts `endpointIdentity`): part of the response cache's key, not of a recording's. */
  endpoint?: string;
  /**
   * What the server says about the model it serves under this name (server-identity.ts): written with
   * each cache entry; an entry another identity wrote is not served (a model swapped behind the same name).
   * Asked with the cache on, or in a process that records every reply's (server-identity.ts hearForEveryModel):
   * a reply from the server carries it as `llmOutput.server` (eval/server-identities.ts).
   */
  serverIdentity?: () => Promise<Hearing | undefined>;
  /** Clock in ms for the recorded `ms` / `queuedMs` (tests; default performance.now). */
  now?: () => number;
}

/** The clock of the recorded `ms` / `queuedMs`: the shared settings' `now` (tests), else performance.now. */
const clockMs = (s: LexcaseModelShared): number => (s.now ? s.now() : performance.now());

/** When a request's first attempt got its concurrency slot (set by `answer`; unset for a cache hit, which waits for none). */
interface Sent {
  at?: number;
  /** Failed attempts sent again (HTTP 429/5xx, a timeout, a connection error, a malformed body), counted at the resend: recorded as the exchange's `retries`. */
  retries?: number;
  /** Called at each attempt's send (the first and every retry): the item's exchange log counts it (ExchangeLog `sent`). */
  onSend?: () => void;
}

// Call options that do not change the reply and must not split the cache.
const VOLATILE_PARAMS = new Set(['stream', 'stream_options', 'user', 'signal', 'timeout', 'promptIndex']);

type RawToolCall = { id?: string; type?: string; function?: { name: string; arguments: unknown } };

/**
 * A call whose arguments the server sent as a JSON object rather than the string OpenAI's API
 * specifies (some proxies and servers of Ollama-style APIs): its arguments as that object's JSON
 * text, so it is read (and runs) as the same call sent as a string; before, it was a malformed call.
 */
function withStringArguments(call: RawToolCall): RawToolCall {
  const args = call.function?.arguments;
  if (!call.function || args === null || typeof args !== 'object' || Array.isArray(args)) return call;
  return { ...call, function: { ...call.function, arguments: JSON.stringify(args) } };
}

function parses(call: RawToolCall): boolean {
  try {
    parseToolCall(call as never, { returnId: true });
    return true;
  } catch {
    return false;
  }
}

/** Chat-completions client that always sends with `create` and converts malformed tool calls quietly (see the module doc). */
export class CreateOnlyCompletions extends ChatOpenAICompletions {
  override _convertCompletionsMessageToBaseMessage(message: never, rawResponse: never) {
    const msg = this.convertMessage(message, rawResponse);
    // a model's refusal (OpenAI's `message.refusal`, content null): LangChain's converter drops it, so the item failed
    // as "no JSON object found in the reply" with no word of what the model said; kept where the reply's readers find it
    const refusal = (message as { refusal?: unknown }).refusal;
    if (typeof refusal === 'string' && refusal.trim()) (msg as AIMessage).additional_kwargs = { ...(msg as AIMessage).additional_kwargs, refusal };
    return msg;
  }

  private convertMessage(message: never, rawResponse: never) {
    const sent = ((message as { tool_calls?: RawToolCall[] }).tool_calls ?? []) as RawToolCall[];
    const calls = sent.map(withStringArguments);
    if (calls.some((c, i) => c !== sent[i])) message = { ...(message as object), tool_calls: calls } as never;
    if (calls.length === 0 || calls.some(parses)) return super._convertCompletionsMessageToBaseMessage(message, rawResponse);
    const msg = super._convertCompletionsMessageToBaseMessage({ ...(message as object), tool_calls: undefined } as never, rawResponse) as AIMessage;
    msg.invalid_tool_calls = calls.map((c) => makeInvalidToolCall(c as never, 'Malformed args: not valid JSON'));
    return msg;
  }

  override async completionWithRetry(request: never, requestOptions?: never): Promise<never> {
    const { maxRetries, ...sdkOptions } = (requestOptions ?? {}) as { maxRetries?: number };
    const clientOptions = this._getClientOptions(sdkOptions as never);
    return this.caller.callWithOptions({ maxRetries } as never, async () => {
      let response: Response;
      try {
        const call = this.client.chat.completions.create(request, clientOptions);
        if ((request as { stream?: boolean }).stream) return (await call) as never;
        response = await call.asResponse();
      } catch (e) {
        throw wrapOpenAIClientError(e);
      }
      // Read the body ourselves: a 200 that is not a completion (empty, HTML, other JSON) is a clear, retryable error.
      return (await readCompletion(response)) as never;
    }) as never;
  }
}

export class LexcaseChatOpenAI extends ChatOpenAI {
  readonly lexcase: LexcaseModelShared;

  constructor(fields: ChatOpenAIFields, shared: LexcaseModelShared) {
    const f = { ...fields, maxRetries: 0, disableStreaming: true, useResponsesApi: false };
    super({ ...f, completions: (fields as { completions?: ChatOpenAICompletions }).completions ?? new CreateOnlyCompletions(f) } as ChatOpenAIFields);
    this.lexcase = shared;
  }

  static override lc_name(): string {
    return 'LexcaseChatOpenAI';
  }

  override withConfig(config: Partial<this['ParsedCallOptions']>) {
    const m = new LexcaseChatOpenAI(this.fields ?? {}, this.lexcase);
    // defaultOptions is protected on the base class; copy it the way ChatOpenAI.withConfig does.
    (m as unknown as { defaultOptions: unknown }).defaultOptions = { ...this.defaultOptions, ...config };
    return m as unknown as ReturnType<ChatOpenAI['withConfig']>;
  }

  /** The cache key: the request as it would go on the wire, minus fields that do not affect the reply. */
  cacheKey(messages: BaseMessage[], options: this['ParsedCallOptions']): { prompt: string; llmKey: string } {
    const wire = convertMessagesToCompletionsMessageParams({ messages, model: this.model });
    const params = Object.fromEntries(
      Object.entries(this.invocationParams(options) as Record<string, unknown>)
        .filter(([k, v]) => !VOLATILE_PARAMS.has(k) && v !== undefined)
        .sort(([a], [b]) => a.localeCompare(b, 'en')),
    );
    return { prompt: JSON.stringify(wire), llmKey: JSON.stringify({ model: this.model, ...params }) };
  }

  /** The response cache's key: `cacheKey` and the endpoint that answers (a recording's key leaves the endpoint out, so a replay may come from anywhere). */
  private responseCacheKey(messages: BaseMessage[], options: this['ParsedCallOptions']): { prompt: string; llmKey: string } {
    const key = this.cacheKey(messages, options);
    return this.lexcase.endpoint ? { prompt: key.prompt, llmKey: `${this.lexcase.endpoint}\n${key.llmKey}` } : key;
  }

  /**
   * One request: replayed from a recording, or answered (cache, endpoint) and recorded in the
   * current item's exchange log (record-replay.ts), errors included. The reply, however it came,
   * gets a unique message id and tool-call ids unique in the conversation (reply-ids.ts) after it
   * was cached and recorded as the server sent it.
   */
  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const result = await this.generateOnce(messages, options, runManager);
    if (result.llmOutput?.cached === true) markCached(result);
    return distinctReplyIds(messages, result);
  }

  private generateOnce(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    const xlog = currentExchangeLog();
    if (!this.lexcase.replayFrom && !xlog) return this.answer(messages, options, runManager);
    // in flight until it settles: the runner waits for the item's calls before it records the item
    return xlog ? xlog.track(() => this.exchange(xlog, messages, options, runManager)) : this.exchange(undefined, messages, options, runManager);
  }

  /** One request recorded in the item's exchange log (`xlog`), or served from the recording (replay). */
  private async exchange(
    xlog: ExchangeLog | undefined,
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const s = this.lexcase;
    const key = this.cacheKey(messages, options);
    const xkey = exchangeKey(key.prompt, key.llmKey);
    if (s.replayFrom) {
      const x = (xlog ?? new ExchangeLogOutsideItems(s.replayFrom)).take(xkey, () => key.prompt.slice(0, 300));
      xlog?.record({
        key: xkey,
        request: x.request,
        ...(x.cached ? { cached: true } : {}),
        ...(x.reply ? { reply: x.reply } : {}),
        ...(x.error ? { error: x.error } : {}),
        ...(x.ms !== undefined ? { ms: x.ms } : {}),
        ...(x.queuedMs !== undefined ? { queuedMs: x.queuedMs } : {}),
        ...(x.at ? { at: x.at } : {}),
        ...(x.abandoned ? { abandoned: true as const } : {}),
        ...(x.unsent ? { unsent: true as const } : {}),
        ...(x.retries ? { retries: x.retries } : {}),
      });
      // cut off when its item ended in the recording: no reply until the item ends here too
      if (x.abandoned) await untilAborted(options.signal);
      if (x.error) throw restoreError(x.error);
      const result = restoreReply(x.reply!);
      if (x.cached) {
        s.stats.cacheHits++;
        recordUsage({ input: 0, output: 0, cached: true, ...cutShortOf(result), ...choicesOf(result) }, s.usage);
        result.llmOutput = { ...result.llmOutput, cached: true };
      } else recordUsage(usageDelta(result), s.usage);
      return result;
    }
    const request = { messages: JSON.parse(key.prompt) as unknown, params: JSON.parse(key.llmKey) as Record<string, unknown> };
    const at = new Date().toISOString();
    const t0 = clockMs(s);
    // `ms` runs from the first attempt's send (its concurrency slot) to the reply, retries and their
    // backoff included; the wait for the slot before it is `queuedMs` apart. Before, `ms` ran from
    // the ask and counted the queue as latency: 4 items against a 1,000 ms endpoint at
    // llm.concurrency 1 recorded 1,032-4,069 ms.
    const sent: Sent = { onSend: () => xlog?.noteSent() };
    const timing = () => {
      const first = sent.at ?? t0;
      const queued = Math.round(first - t0);
      return { ms: Math.round(clockMs(s) - first), ...(queued > 0 ? { queuedMs: queued } : {}), ...(sent.retries ? { retries: sent.retries } : {}) };
    };
    try {
      const result = await this.answer(messages, options, runManager, sent);
      xlog!.record({ key: xkey, request, ...(result.llmOutput?.cached === true ? { cached: true } : {}), reply: storeReply(result), ...timing(), at });
      return result;
    } catch (e) {
      const reason: unknown = options.signal?.aborted ? options.signal.reason : undefined;
      if (!options.signal?.aborted) xlog!.record({ key: xkey, request, error: storeError(e), ...timing(), at });
      // its item ended while it was in flight (record-replay.ts ItemEndedError): recorded as cut off
      // (`unsent` when it never got its concurrency slot: no request reached the server, so it is not counted as cut off)
      else if (isItemEnded(reason))
        xlog!.record({
          key: xkey,
          request,
          error: storeError(reason),
          abandoned: true,
          ...(sent.at === undefined ? { unsent: true as const } : {}),
          ...timing(),
          at,
        });
      throw e;
    }
  }

  /** The reply from the response cache or the endpoint (with retries), with its usage recorded. */
  private async answer(messages: BaseMessage[], options: this['ParsedCallOptions'], runManager?: CallbackManagerForLLMRun, sent?: Sent): Promise<ChatResult> {
    const s = this.lexcase;
    const key = s.cache ? this.responseCacheKey(messages, options) : undefined;
    const heard = s.serverIdentity && (s.cache || everyModelHears()) ? await s.serverIdentity() : undefined;
    // not heard now (GET /models failed or named no entry after it had): asked of the server, the cache neither read nor written
    const server = heard?.unheard ? undefined : heard;
    if (s.cache && key && !heard?.unheard) {
      const entry = await s.cache.lookupEntry(key.prompt, key.llmKey);
      // written when the server described the model otherwise: another model behind the same name, asked again
      const other = entry?.server && server && entry.server.digest !== server.digest ? entry.server : undefined;
      if (other) warnOtherServer(this.model, other, server!);
      const hit = other ? undefined : entry?.generations;
      if (hit?.length) {
        s.stats.cacheHits++;
        const paid = paidByEarlierAttempt(entry!.createdAt, { generations: hit as ChatGeneration[] }, s.usage, () => {
          const plain = this.cacheKey(messages, options);
          return exchangeKey(plain.prompt, plain.llmKey);
        });
        recordUsage(
          {
            input: 0,
            output: 0,
            cached: true,
            ...cutShortOf({ generations: hit as ChatGeneration[] }),
            ...choicesOf({ generations: hit as ChatGeneration[] }),
            ...(paid ? { earlierAttempt: paid } : {}),
          },
          s.usage,
        );
        for (const g of hit as ChatGeneration[]) rememberCacheEntry(g.message, s.cache.path(key.prompt, key.llmKey));
        // who wrote it, for the run's record (eval/cache-sources.ts): what the server said then, and whether it says so now
        const cacheEntry = { ...(entry!.server ? { server: entry!.server.said } : {}), checked: !!(entry!.server && server) };
        return { generations: hit as ChatGeneration[], llmOutput: { cached: true, cacheEntry } };
      }
    }
    const result = await withRetries(
      (attempt) => {
        const asked = s.limit.activeCount >= s.limit.concurrency;
        return s.limit(async () => {
          // a slot handed over by a call that just failed: its failure ends the item a few promise turns later, so
          // let it before this call goes out (before, such a call was started and aborted at once, and counted as
          // cut off though no request reached the server: 1 refused + 1 cut off where the server received 1)
          if (asked) await new Promise((ok) => setImmediate(ok));
          // its item ended (or the caller aborted) while it waited for this slot: never sent (recorded `unsent`, chat-openai exchange)
          if (options.signal?.aborted) throw options.signal.reason;
          if (sent && sent.at === undefined) sent.at = clockMs(s);
          // a failed attempt is counted as sent again here, when it is: one whose item ended during its
          // backoff (or while it waited for a slot) was never resent, and its request is counted once,
          // as cut off (before, it was counted as retried too: one more than the server received)
          if (attempt > 1) {
            s.stats.retries++;
            if (sent) sent.retries = (sent.retries ?? 0) + 1;
          }
          s.stats.requests++;
          sent?.onSend?.();
          s.stats.inFlight++;
          s.stats.maxInFlight = Math.max(s.stats.maxInFlight, s.stats.inFlight);
          try {
            // One deadline per attempt over headers, body and stream (deadline.ts); its own signal, linked to the caller's.
            return await withDeadline(this.timeout, options.signal, (signal) => super._generate(messages, { ...options, signal }, runManager));
          } finally {
            s.stats.inFlight--;
          }
        });
      },
      {
        ...s.retry,
        signal: options.signal,
        onRetry: ({ attempt, delayMs, reason }) => {
          log.debug(`LLM request failed (${reason}); retry ${attempt}/${s.retry.maxRetries} in ${delayMs} ms`);
        },
      },
    );
    recordUsage(usageDelta(result), s.usage);
    // who answered, as GET /models described the model when the request went (eval/server-identities.ts)
    if (server) result.llmOutput = { ...result.llmOutput, server: server.said };
    if (s.cache && key && !heard?.unheard) {
      try {
        await s.cache.update(key.prompt, key.llmKey, result.generations, server);
        for (const g of result.generations) rememberCacheEntry(g.message, s.cache.path(key.prompt, key.llmKey));
      } catch (e) {
        log.warn(`LLM cache write failed (${s.cache.dir}): ${(e as Error).message}`);
      }
    }
    return result;
  }
}

/** Said once per process: cached replies for `model` that a server describing it otherwise wrote are not served. */
function warnOtherServer(model: string, then: ServerIdentity, now: ServerIdentity): void {
  warnOnce(
    'llm.otherServer',
    () =>
      `the response cache holds replies for "${model}" at this endpoint written when the server described the model otherwise (then ${then.said}, now ${now.said}): another model behind the same name? They are not used: the server is asked again and the entries replaced (said once)`,
  );
}

/** Rejects with the signal's reason once it aborts (at once when it has; without a signal, at once). */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (!signal || signal.aborted) return reject(signal?.reason ?? new Error('a request cut off in the recording'));
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/** Outside any item (no exchange log) a replay model holds no recording to answer from. */
class ExchangeLogOutsideItems {
  constructor(readonly dir: string) {}
  take(): never {
    throw errors.llmReplayMismatch(this.dir, '(none)', 'a request outside any item of the run has no recorded reply');
  }
}

/** Tokens of one chat result: llmOutput.tokenUsage, else the first message's usage_metadata (a reply with several choices gives each the same usage; before, a cache hit's were summed). */
export function tokensOf(result: ChatResult): { input: number; output: number } {
  const tu = result.llmOutput?.tokenUsage as { promptTokens?: number; completionTokens?: number } | undefined;
  if (tu && (tu.promptTokens !== undefined || tu.completionTokens !== undefined)) return { input: tu.promptTokens ?? 0, output: tu.completionTokens ?? 0 };
  // the reply's usage, which LangChain copies onto every choice's message: counted once, however many choices came
  const um = (result.generations[0]?.message as { usage_metadata?: { input_tokens?: number; output_tokens?: number } } | undefined)?.usage_metadata;
  return { input: um?.input_tokens ?? 0, output: um?.output_tokens ?? 0 };
}

/** Whether the endpoint stopped a reply at its token limit (OpenAI's finish_reason "length"), or its content filter did: of the first choice, the one read. */
export function cutShortOf(result: Pick<ChatResult, 'generations'>): { cutShort?: true; filtered?: true } {
  const g = result.generations[0];
  const meta = (g?.message as { response_metadata?: { finish_reason?: unknown } } | undefined)?.response_metadata;
  const stoppedFor = (reason: string) => !!g && (g.generationInfo?.finish_reason === reason || meta?.finish_reason === reason);
  // the content filter (OpenAI, Azure, some gateways) stops a reply as the token limit does: its content may be cut or empty
  return { ...(stoppedFor('length') ? { cutShort: true as const } : {}), ...(stoppedFor('content_filter') ? { filtered: true as const } : {}) };
}

/**
 * The choices a reply carried when more than one: a server that ignores `n` (or sends several
 * when n = 1 was asked). LangChain reads the first; said once per process on stderr and counted
 * (`tokens.multiChoice`), so such a server is visible in the run's summaries.
 */
export function choicesOf(result: Pick<ChatResult, 'generations'>): { choices?: number } {
  const n = result.generations.length;
  if (n <= 1) return {};
  warnOnce(
    'llm.multiChoice',
    () =>
      `the LLM endpoint sent a reply with ${n} choices though lexcase asks for one: the first was used; such replies are counted (tokens.multiChoice in results.jsonl) and said in report.md`,
  );
  return { choices: n };
}

/** The total_tokens a reply reported (llmOutput.tokenUsage, else the first message's usage_metadata), 0 when none. */
function totalOf(result: ChatResult): number {
  const tu = (result.llmOutput?.tokenUsage as { totalTokens?: unknown } | undefined)?.totalTokens;
  const um = (result.generations[0]?.message as { usage_metadata?: { total_tokens?: unknown } } | undefined)?.usage_metadata?.total_tokens;
  const t = typeof tu === 'number' ? tu : typeof um === 'number' ? um : 0;
  return Number.isFinite(t) && t > 0 ? t : 0;
}

/**
 * What one reply from the endpoint adds to the meters. A reply without usage — none sent, or 0
 * tokens in and out (no real request costs 0 prompt tokens) — is counted as `unreported` instead of
 * as 0 tokens spent, and a reply cut short at the token limit as `cutShort`; each says so once per
 * process on stderr, as neither is visible in the answer itself.
 */
/**
 * The tokens a cache hit's reply cost when an earlier attempt of this run wrote it (between the
 * run's start and this attempt's: the item meter's window, eval/runner.ts), else 0: a run killed and
 * resumed with the same cache dir paid for those replies, and its token total would drop them. A
 * reply the failed attempt a retry replaces got (the window's `paidByReplaced`) adds 0: its tokens
 * are in the line's `replacedAttempts` (before, they were counted in both).
 */
function paidByEarlierAttempt(createdAt: string | undefined, result: ChatResult, own: UsageMeter | undefined, requestKey: () => string): number {
  const w = (currentUsageScope() ?? own)?.attemptWindow();
  if (!w || !createdAt || createdAt < w.runStart || createdAt >= w.attemptStart) return 0;
  // a failed attempt this retry replaces got this reply: its tokens are in the line's replacedAttempts already
  if (w.paidByReplaced?.has(requestKey())) return 0;
  // written by an attempt a signal stopped, whose interrupt entry counted its under-way items' replies
  if (w.countedAtStop?.some(([from, to]) => createdAt >= from && createdAt <= to)) return 0;
  const d = usageDelta(result);
  return d.input + d.output + (d.totalOnly ?? 0) + (d.totalAbove ?? 0);
}

function usageDelta(result: ChatResult): {
  input: number;
  output: number;
  unreported?: true;
  cutShort?: true;
  filtered?: true;
  totalOnly?: number;
  totalAbove?: number;
  oneSided?: true;
  choices?: number;
  promptCached?: number;
} {
  const { input, output } = tokensOf(result);
  const promptCached = promptCachedOf(result, input);
  // a server that sends only total_tokens (some proxies): its total counts, without an input/output split
  const total = input === 0 && output === 0 ? totalOf(result) : 0;
  // a total above prompt + completion (a thinking model's reasoning counted in total_tokens alone, as gateways
  // in front of Gemini send it): the excess counts in the total; before, the total was prompt + completion
  const above = total === 0 ? Math.max(0, totalOf(result) - input - output) : 0;
  const unreported = input === 0 && output === 0 && total === 0;
  // usage with one side 0 or missing (prompt_tokens 0 beside completion_tokens 30, as Ollama sent for a prompt it had
  // cached; no completion_tokens): no real request costs 0 prompt tokens and no answer 0 completion tokens, so that
  // side is undercounted — counted and said (before, read as 0 without a word: a CASE run's total 60× low and its
  // --max-tokens budget never reached). A total above the two (totalAbove) holds the missing side: not counted here.
  const oneSided = !unreported && total === 0 && above === 0 && (input === 0 || output === 0);
  const cut = cutShortOf(result);
  if (unreported)
    warnOnce(
      'llm.unreported',
      () =>
        'the LLM endpoint reported no token usage for a reply (no usage, or 0 tokens): such calls are counted as "unreported" (tokens.unreported in results.jsonl), not as 0 tokens spent, and token budgets (CASE advocates\' --max-tokens) cannot count them',
    );
  if (oneSided)
    warnOnce(
      'llm.oneSided',
      () =>
        `the LLM endpoint reported ${input === 0 ? `0 prompt tokens beside ${output} completion tokens` : `0 (or no) completion tokens beside ${input} prompt tokens`} for a reply: such calls are counted as "oneSided" (tokens.oneSided in results.jsonl); input/output/total undercount what they spent, and token budgets (CASE advocates' --max-tokens) cannot count the missing side`,
    );
  if (cut.cutShort)
    warnOnce(
      'llm.cutShort',
      () =>
        'the LLM endpoint cut a reply short at its token limit (finish_reason "length"): such calls are counted as "cutShort" (tokens.cutShort in results.jsonl); raise llm.maxTokens (LEXCASE_LLM_MAX_TOKENS) if answers are truncated',
    );
  if (cut.filtered)
    warnOnce(
      'llm.filtered',
      () =>
        'the LLM endpoint\'s content filter stopped a reply (finish_reason "content_filter"): its content may be cut or empty; such calls are counted as "filtered" (tokens.filtered in results.jsonl) and in report.md',
    );
  if (above)
    warnOnce(
      'llm.totalAbove',
      () =>
        `the LLM endpoint reported a total_tokens above prompt + completion for a reply (${input} + ${output}, total ${input + output + above}: a thinking model's reasoning counted in the total alone?): the excess is counted in the total, not in input/output (tokens.totalAbove in results.jsonl)`,
    );
  if (total)
    warnOnce(
      'llm.totalOnly',
      () =>
        "the LLM endpoint reported only total_tokens for a reply (no prompt/completion counts): its total is counted, without an input/output split (tokens.totalOnly in results.jsonl); token budgets (CASE advocates' --max-tokens) count that total",
    );
  return {
    input,
    output,
    ...(unreported ? { unreported: true } : {}),
    ...(total ? { totalOnly: total } : {}),
    ...(above ? { totalAbove: above } : {}),
    ...(oneSided ? { oneSided: true } : {}),
    ...cut,
    ...choicesOf(result),
    ...(promptCached !== undefined ? { promptCached } : {}),
  };
}

/**
 * Of a reply's `input` tokens, those the endpoint said its own prompt cache served
 * (`prompt_tokens_details.cached_tokens`, which LangChain keeps as usage_metadata's
 * input_token_details.cache_read; read as a count of at most the prompt in reply-usage.ts), or
 * undefined when it did not say — or said something that is no share of `input` (a stored reply of
 * an older lexcase).
 */
function promptCachedOf(result: ChatResult, input: number): number | undefined {
  const um = (result.generations[0]?.message as { usage_metadata?: { input_token_details?: { cache_read?: unknown } } } | undefined)?.usage_metadata;
  const v = um?.input_token_details?.cache_read;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= input ? v : undefined;
}

/**
 * Mark a reply served from the response cache: it spent no tokens, though its usage_metadata keeps
 * what the server reported (a conversation's size, which token budgets count, is the same whether
 * its replies came from the cache or not); per-step tallies of tokens spent skip it (spent-tokens.ts).
 * The cache and the recording keep the reply as the server sent it.
 */
function markCached(result: ChatResult): void {
  for (const g of result.generations) {
    const m = g.message as AIMessage;
    m.response_metadata = { ...m.response_metadata, [CACHED_MARK]: true };
  }
}
