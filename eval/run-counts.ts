/**
 * The counts line every `lexcase run <system>` prints after a run (CASE, the baselines, MAD, ACAL,
 * EMAr, 3-ply, a plugin's `run`): what this call ran and failed, what it skipped as already done —
 * saying how many of those are failures kept from an earlier attempt (--no-retry-failed), so the line
 * agrees with the report's failed items printed with it — and the whole run's tokens, summed from
 * results.jsonl as report.md sums them (not only what this call spent: 0 after a full resume), and
 * the requests counted apart from the calls: cut off when their item ended, or refused (an error
 * after their retries), whose usage is in no total.
 */
import { textOtherAnswerText } from '../core/llm/text-beside-call.js';
import type { RunConfigFile } from './run-config-file.js';
import { readConfig } from './run-dir.js';
import { runResumes } from './run-resumes.js';
import type { ResultRecord } from './types.js';

export interface RunCounts {
  ran: number;
  skipped: number;
  failed: number;
  /** Failed items from an earlier call that this call ran again. */
  retried?: number;
  /** Of `skipped`, the earlier failures kept as failed (retryFailed false). */
  keptFailed?: number;
}

/** "6 failed earlier, kept as failed by --no-retry-failed": the one wording of kept failures (this line and the runner's "resuming …" line). */
export function keptFailedText(n: number): string {
  return `${n} failed earlier, kept as failed by --no-retry-failed`;
}

/** "5 failed earlier, run again": the one wording of retried failures (this line and the runner's "resuming …" line). */
export function retriedText(n: number): string {
  return `${n} failed earlier, run again`;
}

/**
 * "resuming DIR: 17 of 60 items already done (…)": the one line a resumed run says, from the runner
 * itself or, for a reproduce grid's LLM cell (whose `lexcase run --json` logs only warnings), from
 * the resume config.json records (eval/reproduce/run-grid.ts). `underWay`: the requests of items under
 * way at the run's earlier interrupts (config.json `interrupts`, runInterrupts), which the line says as
 * the end line and report.md count them; before, it left them out ("6 of 12 items already done" and
 * nothing of the 3 requests the server had received for the items the interrupt cut short), and a
 * resume of a run interrupted before its first line said nothing at all.
 */
export function resumingText(runDir: string, r: { items: number; skipped: number; keptFailed?: number; retried?: number }, underWay?: UnderWay): string {
  const interrupted = underWay?.requests
    ? `; ${underWayText(underWay)} (in no results.jsonl line; the counts line and report.md count ${underWay.requests === 1 ? 'it' : 'them'})`
    : '';
  return `resuming ${runDir}: ${r.skipped} of ${r.items} items already done${r.keptFailed ? ` (${keptFailedText(r.keptFailed)}; without it they run again)` : ''}${r.retried ? `; ${retriedText(r.retried)}` : ''}${interrupted}`;
}

/** Whether a resume has anything for resumingText to say: items done or retried, or requests of an earlier interrupt. */
export function resumeSaysAnything(r: { skipped: number; retried?: number }, underWay?: UnderWay): boolean {
  return !!(r.skipped || r.retried || underWay?.requests);
}

/** "ran 0, skipped 8 (already done; 6 failed earlier, kept as failed by --no-retry-failed), failed 0". */
export function runCountsText(r: RunCounts): string {
  const retried = r.retried ? ` (${retriedText(r.retried)})` : '';
  const kept = r.keptFailed ? `; ${keptFailedText(r.keptFailed)}` : '';
  return `ran ${r.ran}${retried}, skipped ${r.skipped} (already done${kept}), failed ${r.failed}`;
}

/** The tokens the run's results record, all of its items (report.md's "Tokens" total). */
export function runTokenTotal(results: readonly ResultRecord[]): number {
  return results.reduce((s, r) => s + (typeof r.tokens?.total === 'number' ? r.tokens.total : 0), 0);
}

/**
 * Of the input tokens the run's results record (each item's recorded attempt, as runTokenTotal), those
 * the endpoint said its own prompt cache served (results.jsonl `tokens.promptCached`); undefined when
 * no line says it (the endpoint reported none, or an older lexcase wrote the lines): not reported, not 0.
 */
export function runPromptCached(results: readonly ResultRecord[]): number | undefined {
  const said = results.filter((r) => r.tokens?.promptCached !== undefined);
  return said.length ? said.reduce((s, r) => s + (r.tokens!.promptCached ?? 0), 0) : undefined;
}

/**
 * Result lines whose endpoint answered calls (not only cache hits) and that record no
 * `tokens.promptCached`, when others do: the endpoint did not say for those items (or an older
 * lexcase wrote their lines), so the prompt-cache figure covers the other items' input only.
 */
export function runPromptCacheUnsaid(results: readonly ResultRecord[]): number {
  if (!results.some((r) => r.tokens?.promptCached !== undefined)) return 0;
  return results.filter((r) => r.tokens && r.tokens.calls > r.tokens.cached && r.tokens.promptCached === undefined).length;
}

/** "3,072 of them from the server's prompt cache" (and "; not reported for 2 items" where some items' lines do not say): the one wording of the input tokens the endpoint's own prompt cache served (report.md, the summaries, CASE's Tokens line, the explorer). */
export function promptCachedText(n: number, unsaid = 0): string {
  const items = `${unsaid.toLocaleString('en-US')} ${unsaid === 1 ? 'item' : 'items'}`;
  return `${n.toLocaleString('en-US')} of them from the server's prompt cache${unsaid ? `; not reported for ${items}` : ''}`;
}

/** "input 12,345 (3,072 of them from the server's prompt cache)": the run's input tokens and what the server's prompt cache served of them; null when no line says it. */
export function runPromptCacheText(results: readonly ResultRecord[]): string | null {
  const cached = runPromptCached(results);
  if (cached === undefined) return null;
  const input = results.reduce((s, r) => s + (r.tokens?.input ?? 0), 0);
  return `input ${input.toLocaleString('en-US')} (${promptCachedText(cached, runPromptCacheUnsaid(results))})`;
}

/** The requests results.jsonl counts apart from `calls`: cut off when their item ended, or refused (an error after their retries). */
type UncountedRequests = 'abandoned' | 'refused' | 'retried';

/** Requests of the whole run of that kind: each item's and those of the failed attempts a retry replaced. */
function runRequestCount(results: readonly ResultRecord[], key: UncountedRequests): number {
  return results.reduce((s, r) => s + (r.tokens?.[key] ?? 0) + (r.replacedAttempts?.tokens[key] ?? 0), 0);
}

/**
 * Requests of the whole run cut off when their item ended (results.jsonl `tokens.abandoned`, and
 * that of the failed attempts a retry replaced): what they spent is in no token total.
 */
export const runCutOffCount = (results: readonly ResultRecord[]): number => runRequestCount(results, 'abandoned');

/**
 * Requests of the whole run answered with an error after their retries (results.jsonl
 * `tokens.refused`, replaced attempts' included): sent, yet in no call count or token total.
 */
export const runRefusedCount = (results: readonly ResultRecord[]): number => runRequestCount(results, 'refused');

/**
 * Failed attempts of the whole run that were sent again (results.jsonl `tokens.retried`, replaced
 * attempts' included: HTTP 429/5xx, timeouts, connection errors, malformed bodies): sent, yet in no
 * call count or token total.
 */
export const runRetriedCount = (results: readonly ResultRecord[]): number => runRequestCount(results, 'retried');

/**
 * Result lines that sent requests (LLM calls, or requests cut off or refused) and record no
 * `tokens.retried`: lines an older lexcase wrote, before failed attempts sent again were counted
 * (the runner writes it on every line since, 0 included), so runRetriedCount undercounts by theirs.
 */
export function runRetriesUnrecorded(results: readonly ResultRecord[]): number {
  return results.filter((r) => r.tokens && r.tokens.retried === undefined && (r.tokens.calls > 0 || r.tokens.abandoned || r.tokens.refused)).length;
}

/** "retries not recorded for 3 items (written by an older lexcase)": the one wording (the counts line, report.md). */
export function retriesUnrecordedText(n: number): string {
  return `retries not recorded for ${n.toLocaleString('en-US')} ${n === 1 ? 'item' : 'items'} (written by an older lexcase)`;
}

/** "2 failed attempts sent again (HTTP 429/5xx, a timeout, …; their usage, if any, is in no total)": the one wording (the counts line, report.md, CASE's Tokens line). */
export function resentText(n: number): string {
  return `${n.toLocaleString('en-US')} failed ${n === 1 ? 'attempt' : 'attempts'} sent again (HTTP 429/5xx, a timeout, …; ${n === 1 ? 'its' : 'their'} usage, if any, is in no total)`;
}

const requests = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'request' : 'requests'}`;

/** "5 requests cut off when their item ended (their usage is in no total)": the one wording (the counts line, report.md). */
export function cutOffText(n: number): string {
  return `${requests(n)} cut off when ${n === 1 ? 'its' : 'their'} item ended (${n === 1 ? 'its' : 'their'} usage is in no total)`;
}

/** "3 requests refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)": the one wording (the counts line, report.md, CASE's Tokens line). */
export function refusedText(n: number): string {
  return `${requests(n)} refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)`;
}

/**
 * The items under way at the run's interrupts and the requests they sent (config.json `interrupts`,
 * src/cli/run-interrupt.ts): no results.jsonl line holds them, so no token or call figure does;
 * { items: 0, requests: 0 } when none (or config.json is not an object).
 */
export function runInterrupts(configFile: unknown): UnderWay {
  const list = (configFile as { interrupts?: unknown } | null | undefined)?.interrupts;
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  return (Array.isArray(list) ? list : []).reduce(
    (a: UnderWay, x: { items?: unknown; requests?: unknown; tokens?: unknown } | null) => ({
      items: a.items + count(x?.items),
      requests: a.requests + count(x?.requests),
      ...(a.tokens || count(x?.tokens) ? { tokens: (a.tokens ?? 0) + count(x?.tokens) } : {}),
    }),
    { items: 0, requests: 0 } as UnderWay,
  );
}

/**
 * The interrupts no resume has run the items of again, summed: what a resume records as its
 * `underWay` (the attempt before it was stopped with those items under way). An interrupt is resumed
 * by any later resume (`at` at or after it) — of a merged run (runResumes: every shard's and the
 * merged dir's own), by a later resume of its own shard or of the merged dir. So every interrupt is
 * counted by one resume. An interrupt without a time is counted (never taken as resumed). Before,
 * a resume counted the interrupts since the last entry of `resumes`, which in a merged run dir is
 * the last shard's (they are in shard order): a resume of the merged dir counted again an
 * interrupt of shard 1 that shard 1's own later resume had counted (Σ underWay 12 for 7 requests).
 */
export function unresumedInterrupts(configFile: unknown): UnderWay {
  const file = (configFile ?? {}) as Partial<RunConfigFile>;
  const list = Array.isArray(file.interrupts) ? file.interrupts : [];
  const resumes = runResumes(file);
  const resumed = (x: { at?: unknown; shard?: number; recording?: unknown } | null) =>
    // a replay's copy of its recording's interrupt: the recording's resume ran those items again
    x?.recording === true ||
    (typeof x?.at === 'string' &&
      resumes.some((r) => typeof r.at === 'string' && r.at >= (x.at as string) && (r.shard === undefined || x.shard === undefined || r.shard === x.shard)));
  return runInterrupts({ interrupts: list.filter((x) => !resumed(x)) });
}

/** "3 requests sent by 2 items under way at an interrupt": the one wording (src/cli/run-interrupt.ts's message, report.md, the counts line). */
export function underWayText(u: { items: number; requests: number }): string {
  return `${u.requests.toLocaleString('en-US')} ${u.requests === 1 ? 'request' : 'requests'} sent by ${u.items} ${u.items === 1 ? 'item' : 'items'} under way at an interrupt`;
}

/** Items under way at the run's interrupts and the requests they had sent (config.json `interrupts`, src/cli/run-interrupt.ts): in no results.jsonl line. */
export interface UnderWay {
  items: number;
  requests: number;
  /** The tokens their answered requests reported before the stop (config.json `interrupts[].tokens`): in no total; absent when none recorded. */
  tokens?: number;
}

/** "plus 7,300 tokens the stopped attempt spent on them (…)": the one wording of an interrupt's tokens, which no total holds. */
export function underWayTokensText(tokens: number): string {
  return `plus ${tokens.toLocaleString('en-US')} tokens the stopped attempt spent on them (what their answered requests reported; not in the total, which counts recorded items only; a request the stop cut off reported none)`;
}

/** The run dir's interrupts summed (its config.json `interrupts`); 0 and 0 when it records none or cannot be read (the line then says nothing of them). */
export async function readRunUnderWay(runDir: string): Promise<UnderWay> {
  const cfg = (await readConfig(runDir).catch(() => undefined)) as Partial<RunConfigFile> | undefined;
  return runInterrupts(cfg);
}

/** "3 requests sent by 2 items under way at an interrupt (in no results.jsonl line, nor in LLM calls; their usage is in no total)": the counts line's and CASE's Tokens line's wording. */
export function underWayCountText(u: UnderWay): string {
  return `${underWayText(u)} (in no results.jsonl line, nor in LLM calls; ${u.tokens ? underWayTokensText(u.tokens) : `${u.requests === 1 ? 'its' : 'their'} usage is in no total`})`;
}

/**
 * The run's requests counted apart from its LLM calls, as `--json` gives them beside `tokens` (the
 * numbers uncountedRequestsText says on the counts line): cut off when their item ended, refused
 * after their retries, failed attempts sent again, and those of items under way at an interrupt.
 */
export function runUncountedRequests(
  results: readonly ResultRecord[],
  underWay?: UnderWay,
): { cutOff: number; refused: number; retried: number; underWay: UnderWay } {
  return {
    cutOff: runCutOffCount(results),
    refused: runRefusedCount(results),
    retried: runRetriedCount(results),
    underWay: underWay ?? { items: 0, requests: 0 },
  };
}

/** "; 2 requests cut off …; 3 requests refused …; …; 1 request sent by 1 item under way at an interrupt (…)": the run's requests counted apart from its calls, '' when none. */
export function uncountedRequestsText(cutOff: number, refused: number, retried = 0, underWay?: UnderWay): string {
  return `${cutOff ? `; ${cutOffText(cutOff)}` : ''}${refused ? `; ${refusedText(refused)}` : ''}${retried ? `; ${resentText(retried)}` : ''}${underWay?.requests ? `; ${underWayCountText(underWay)}` : ''}`;
}

/**
 * The run's cache hits (results.jsonl `tokens.cached`) and the tokens an earlier, killed attempt of
 * this run paid for those replies (`tokens.earlierAttempts`, core/llm/usage.ts): neither is in the
 * token total, which counts what the endpoint processed for the recorded attempts.
 */
export function runCacheCounts(results: readonly ResultRecord[]): { hits: number; earlierAttempts: number } {
  return results.reduce((s, r) => ({ hits: s.hits + (r.tokens?.cached ?? 0), earlierAttempts: s.earlierAttempts + (r.tokens?.earlierAttempts ?? 0) }), {
    hits: 0,
    earlierAttempts: 0,
  });
}

/** "6 cache hits (no tokens; 25,371 tokens of them paid by an earlier attempt of this run, not in the total)": the one wording (the summaries, report.md, the explorer). */
export function cacheHitsText(hits: number, earlierAttempts = 0): string {
  const earlier = earlierAttempts ? `; ${earlierAttempts.toLocaleString('en-US')} tokens of them paid by an earlier attempt of this run, not in the total` : '';
  return `${hits.toLocaleString('en-US')} ${hits === 1 ? 'cache hit' : 'cache hits'} (no tokens${earlier})`;
}

/**
 * The per-reply flags results.jsonl's `tokens` counts (each a key of RunReplyFlags; `choicesCarried`
 * the choices the `multiChoice` replies carried): the one list the counts line (runReplyFlags),
 * report.md's Tokens section and CASE's run metrics read, so a flag added here is counted on each.
 */
export const REPLY_FLAG_KEYS = [
  'unreported',
  'cutShort',
  'filtered',
  'totalOnly',
  'totalAbove',
  'oneSided',
  'multiChoice',
  'choicesCarried',
  'textOtherAnswer',
] as const;
export type ReplyFlagKey = (typeof REPLY_FLAG_KEYS)[number];

/** What replies of the whole run (each item's and the failed attempts a retry replaced) said beside their content: LLM calls, those without usage, those cut short. */
export interface RunReplyFlags extends Record<ReplyFlagKey, number> {
  calls: number;
  /** Calls whose endpoint reported no token usage (results.jsonl `tokens.unreported`): their tokens are in no total. */
  unreported: number;
  /** Replies the endpoint cut short at its token limit (`tokens.cutShort`, finish_reason "length"). */
  cutShort: number;
  /** Replies the endpoint's content filter stopped (`tokens.filtered`, finish_reason "content_filter"). */
  filtered: number;
  /** Calls whose endpoint reported only total_tokens (`tokens.totalOnly`): in the total, not in input/output. */
  totalOnly: number;
  /** Calls whose endpoint reported a total_tokens above prompt + completion (`tokens.totalAbove`): the excess in the total, not in input/output. */
  totalAbove: number;
  /** Calls whose endpoint reported 0 (or no) tokens on one side of usage (`tokens.oneSided`): that side undercounted. */
  oneSided: number;
  /** Replies that carried more than one choice (`tokens.multiChoice`; a server that ignores `n`): the first was read. */
  multiChoice: number;
  /** The choices those replies carried in all (`tokens.choicesCarried`). */
  choicesCarried: number;
  /** Replies whose text named another answer than the one read (`tokens.textOtherAnswer`): the call or answer field was read. */
  textOtherAnswer: number;
}

/** `which`: 'all' (default) each item's recorded attempt and the failed attempts a retry replaced; 'replaced' those alone (report.md's note on them). */
export function runReplyFlags(results: readonly ResultRecord[], which: 'all' | 'replaced' = 'all'): RunReplyFlags {
  const f = Object.fromEntries(['calls', ...REPLY_FLAG_KEYS].map((k) => [k, 0])) as unknown as RunReplyFlags;
  for (const r of results)
    for (const t of which === 'all' ? [r.tokens, r.replacedAttempts?.tokens] : [r.replacedAttempts?.tokens]) {
      if (!t) continue;
      f.calls += t.calls ?? 0;
      for (const k of REPLY_FLAG_KEYS) f[k] += t[k] ?? 0;
    }
  return f;
}

/**
 * "; 3 of 3 LLM calls reported no token usage (not in the total); 2 replies cut short at the token
 * limit (finish_reason "length")": the one wording of the summaries, '' when neither. Without it a
 * run against a server that sends no `usage` printed "tokens 0", as if it had cost nothing.
 */
export function replyFlagsText(f: RunReplyFlags): string {
  const calls = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'LLM call' : 'LLM calls'}`;
  const unreported = f.unreported
    ? `; ${f.unreported.toLocaleString('en-US')} of ${calls(f.calls)} reported no token usage (the endpoint sent none; not in the total)`
    : '';
  const cut = f.cutShort
    ? `; ${f.cutShort.toLocaleString('en-US')} ${f.cutShort === 1 ? 'reply' : 'replies'} cut short at the token limit (finish_reason "length")`
    : '';
  const filtered = f.filtered
    ? `; ${f.filtered.toLocaleString('en-US')} ${f.filtered === 1 ? 'reply' : 'replies'} stopped by the content filter (finish_reason "content_filter")`
    : '';
  const totalOnly = f.totalOnly ? `; ${f.totalOnly.toLocaleString('en-US')} of ${calls(f.calls)} reported only a total (no input/output split)` : '';
  const totalAbove = f.totalAbove
    ? `; ${f.totalAbove.toLocaleString('en-US')} of ${calls(f.calls)} reported a total above input + output (the excess is in the total)`
    : '';
  const oneSided = f.oneSided
    ? `; ${f.oneSided.toLocaleString('en-US')} of ${calls(f.calls)} reported 0 tokens on one side of usage (input or output undercounted)`
    : '';
  return (
    unreported +
    oneSided +
    totalOnly +
    totalAbove +
    cut +
    filtered +
    (f.multiChoice ? `; ${multiChoiceText(f.multiChoice, f.choicesCarried)}` : '') +
    (f.textOtherAnswer ? `; ${textOtherAnswerText(f.textOtherAnswer)}` : '')
  );
}

/** "2 replies carried 6 choices; the first was used": replies of a server that ignores `n` (lexcase asks for one choice). */
export function multiChoiceText(replies: number, choices: number): string {
  return `${replies.toLocaleString('en-US')} ${replies === 1 ? 'reply' : 'replies'} carried ${choices.toLocaleString('en-US')} choices; the first ${replies === 1 ? 'was' : 'of each was'} used`;
}

/** The citations of the run's items that named no passage handle the model was shown (results' `metrics.unresolvedCitations`), and the items with any. */
export function runUnresolvedCitations(results: readonly ResultRecord[]): { citations: number; items: number } {
  let citations = 0;
  let items = 0;
  for (const r of results) {
    const n = r.metrics?.unresolvedCitations;
    if (typeof n === 'number' && n > 0) {
      citations += n;
      items++;
    }
  }
  return { citations, items };
}

/**
 * "3 citations in 2 items named no passage handle shown": the one wording of
 * citations a model wrote as none of the handles it was shown ("P3, P5", "P99"; agents/common/passage-handles.ts
 * `cite`), which every citation and evidence figure leaves out; before 2026-12-01 nothing counted them, and
 * "(P3)", "P3." or "Passage 3" were among them.
 */
/** The passages CASE advocates picked after they had their k (results' `metrics.picksBeyondK`), dropped, and the items with any. */
export function runPicksBeyondK(results: readonly ResultRecord[]): { picks: number; items: number; uncounted?: number } {
  let picks = 0;
  let items = 0;
  let uncounted = 0;
  for (const r of results) {
    const n = r.metrics?.picksBeyondK;
    if (typeof n === 'number' && n > 0) {
      picks += n;
      items++;
    }
    // an LLM CASE item (its jury recorded abstentions) written before the count, in a resumed older run dir
    if (typeof n !== 'number' && typeof r.metrics?.abstentions === 'number') uncounted++;
  }
  return { picks, items, ...(uncounted ? { uncounted } : {}) };
}

/** "3 advocate picks beyond k in 1 item dropped": the end line's count of runPicksBeyondK. */
/**
 * CASE advocates' tool calls a per-item count `key` counts (results' `metrics.repeatedToolCalls`: made twice in
 * one reply, each run once; `metrics.toolCallsNotOffered`: naming a tool not offered, refused), and the items with any.
 */
export function runToolCallCount(results: readonly ResultRecord[], key: 'repeatedToolCalls' | 'toolCallsNotOffered'): { calls: number; items: number } {
  let calls = 0;
  let items = 0;
  for (const r of results) {
    const n = r.metrics?.[key];
    if (typeof n === 'number' && n > 0) {
      calls += n;
      items++;
    }
  }
  return { calls, items };
}

/** "2 repeated tool calls in one reply run once (1 item)". */
export function repeatedToolCallsText(u: { calls: number; items: number }): string {
  return `${u.calls.toLocaleString('en-US')} repeated tool ${u.calls === 1 ? 'call' : 'calls'} in one reply run once (${u.items.toLocaleString('en-US')} ${u.items === 1 ? 'item' : 'items'})`;
}

/** "1 tool call naming no tool offered refused (1 item)". */
export function toolCallsNotOfferedText(u: { calls: number; items: number }): string {
  return `${u.calls.toLocaleString('en-US')} tool ${u.calls === 1 ? 'call' : 'calls'} naming no tool offered refused (${u.items.toLocaleString('en-US')} ${u.items === 1 ? 'item' : 'items'})`;
}

export function picksBeyondKText(u: { picks: number; items: number; uncounted?: number }): string {
  return `${u.picks.toLocaleString('en-US')} advocate ${u.picks === 1 ? 'pick' : 'picks'} beyond k in ${u.items.toLocaleString('en-US')} ${u.items === 1 ? 'item' : 'items'} dropped${u.uncounted ? ` (${u.uncounted.toLocaleString('en-US')} ${u.uncounted === 1 ? 'item' : 'items'} from before lexcase counted them not counted)` : ''}`;
}

export function unresolvedCitationsText(u: { citations: number; items: number }): string {
  return `${u.citations.toLocaleString('en-US')} ${u.citations === 1 ? 'citation' : 'citations'} in ${u.items.toLocaleString('en-US')} ${u.items === 1 ? 'item' : 'items'} named no passage handle shown`;
}

/** What the failed attempts a retry replaced spent, summed (runReplacedAttempts). */
export interface ReplacedAttempts {
  items: number;
  attempts: number;
  total: number;
  calls: number;
  abandoned: number;
  refused: number;
  retried: number;
  earlierAttempts: number;
}

/**
 * The failed attempts a retry replaced (results.jsonl `replacedAttempts`): how many, of how many items, the tokens and
 * LLM calls they spent, their requests cut off, refused and sent again, and their cache hits an earlier attempt paid for.
 */
export function runReplacedAttempts(results: readonly Pick<ResultRecord, 'replacedAttempts'>[]): ReplacedAttempts {
  const out: ReplacedAttempts = { items: 0, attempts: 0, total: 0, calls: 0, abandoned: 0, refused: 0, retried: 0, earlierAttempts: 0 };
  for (const { replacedAttempts: r } of results) {
    if (!r) continue;
    out.items++;
    out.attempts += r.attempts;
    out.total += r.tokens.total;
    out.calls += r.tokens.calls;
    out.abandoned += r.tokens.abandoned ?? 0;
    out.refused += r.tokens.refused ?? 0;
    out.retried += r.tokens.retried ?? 0;
    out.earlierAttempts += r.tokens.earlierAttempts ?? 0;
  }
  return out;
}

/**
 * "plus 1,720 tokens spent on 1 failed attempt a retry replaced (…)": the one wording of those attempts' tokens on the counts
 * line and CASE's Tokens line, which count the refused, cut-off and resent requests of those attempts (before 2026-12-05 not
 * their tokens: a resume that retried a failed item printed a run total below the first run's, though it only added spending).
 */
export function replacedAttemptsText(r: { attempts: number; total: number; calls: number }): string {
  return `plus ${r.total.toLocaleString('en-US')} tokens (${r.calls.toLocaleString('en-US')} LLM ${r.calls === 1 ? 'call' : 'calls'}) spent on ${r.attempts.toLocaleString('en-US')} failed ${r.attempts === 1 ? 'attempt' : 'attempts'} a retry replaced (not in the total, which counts each item's recorded attempt)`;
}

/**
 * "tokens 10,886 (whole run; this call 0)": the run's total, and this call's when it differs; then its input and how much
 * of it the server's prompt cache served, when the endpoint said; then the cache hits, the requests cut off, refused or sent
 * again, those of items under way at an interrupt (`underWay`: config.json `interrupts`, runInterrupts; before, left out
 * though report.md counts them), and the calls without usage or cut short, if any; then the citations that named no
 * passage handle shown (unresolvedCitationsText), if any.
 */
export function runTokensText(results: readonly ResultRecord[], thisCall: number, underWay?: UnderWay): string {
  const total = runTokenTotal(results);
  const cache = runCacheCounts(results);
  const unrecorded = runRetriesUnrecorded(results);
  const promptCache = runPromptCacheText(results);
  const unresolved = runUnresolvedCitations(results);
  const replaced = runReplacedAttempts(results);
  return `tokens ${total.toLocaleString('en-US')}${thisCall === total ? '' : ` (whole run; this call ${thisCall.toLocaleString('en-US')})`}${replaced.attempts ? `; ${replacedAttemptsText(replaced)}` : ''}${promptCache ? `; ${promptCache}` : ''}${cache.hits ? `; ${cacheHitsText(cache.hits, cache.earlierAttempts)}` : ''}${uncountedRequestsText(runCutOffCount(results), runRefusedCount(results), runRetriedCount(results), underWay)}${unrecorded ? `; ${retriesUnrecordedText(unrecorded)}` : ''}${replyFlagsText(runReplyFlags(results))}${unresolved.citations ? `; ${unresolvedCitationsText(unresolved)}` : ''}`;
}

/**
 * A replay's copy of its recording's interrupts (config.json `interrupts`, each marked `recording`):
 * the requests of items under way at a stop of the recording, which no line holds, so the replay's
 * report counts them as the recording's did; {} when it records none or cannot be read.
 */
export async function recordedStops(recordingDir: string): Promise<Pick<RunConfigFile, 'interrupts'>> {
  const file = (await readConfig(recordingDir).catch(() => undefined)) as Partial<RunConfigFile> | undefined;
  const list = Array.isArray(file?.interrupts) ? file.interrupts : [];
  return list.length ? { interrupts: list.map((x) => ({ ...x, recording: true as const })) } : {};
}

/**
 * [start, stop] of each earlier attempt of the run that a signal stopped and whose interrupt entry
 * recorded the tokens its items under way were answered with (config.json `interrupts[].tokens`; a
 * kill records none): the attempt started at the latest of the run's start and its resumes' times
 * before the stop. A cache hit on a reply written within one is in that figure already.
 */
export function stoppedAttemptsCounted(configFile: Partial<RunConfigFile> | undefined, runStart: string): [string, string][] {
  const starts = [runStart, ...runResumes(configFile ?? {}).map((r) => r.at)].filter((t): t is string => typeof t === 'string').sort();
  const list = Array.isArray(configFile?.interrupts) ? configFile.interrupts : [];
  return list
    .filter((x) => typeof x?.at === 'string' && typeof x.tokens === 'number' && x.tokens > 0 && x.recording !== true)
    .map((x) => [starts.filter((t) => t <= x.at).at(-1) ?? runStart, x.at] as [string, string]);
}
