/** Token usage summed from results (input/output tokens actually sent to the endpoint; cache hits counted apart). */
import { textOtherAnswerText } from '../../../core/llm/text-beside-call.js';
import { itemsUncounted, uncountedText } from '../../item-counts.js';

/** An older lexcase counted textOtherAnswer by an older reading, or not at all: its items are not counted by this one. */
const READING_BY = 'by this reading (the older lexcase counted by its own reading, or not at all)';
import {
  cacheHitsText,
  cutOffText,
  multiChoiceText,
  promptCachedText,
  refusedText,
  resentText,
  retriesUnrecordedText,
  runPromptCached,
  runPromptCacheUnsaid,
  runInterrupts,
  runReplacedAttempts,
  runRetriesUnrecorded,
  underWayText,
  underWayTokensText,
  REPLY_FLAG_KEYS,
  replyFlagsText,
  runReplyFlags,
  type ReplyFlagKey,
} from '../../run-counts.js';
import { num, table } from '../format.js';
import { meteredItems, meteredItemsText, perItemTokensText } from '../../tokens-per-item.js';
import type { ResultRecord } from '../../types.js';
import type { SectionBuilder } from '../types.js';

export const tokensSection: SectionBuilder = (run) => {
  const withTokens = run.results.filter((r) => r.tokens);
  if (withTokens.length === 0) return null;
  const t = {
    input: 0,
    output: 0,
    total: 0,
    calls: 0,
    cached: 0,
    ...(Object.fromEntries(REPLY_FLAG_KEYS.map((k) => [k, 0])) as Record<ReplyFlagKey, number>),
    abandoned: 0,
    refused: 0,
    retried: 0,
    earlierAttempts: 0,
  };
  for (const r of withTokens) for (const k of Object.keys(t) as (keyof typeof t)[]) t[k] += r.tokens![k] ?? 0;
  // items under way when a signal stopped the run (src/cli/run-interrupt.ts): no line, so their requests are counted from config.json
  const underWay = runInterrupts(run.config);
  const {
    unreported,
    cutShort,
    filtered,
    totalOnly,
    totalAbove,
    oneSided,
    multiChoice,
    choicesCarried,
    textOtherAnswer,
    abandoned,
    refused,
    retried,
    earlierAttempts,
    ...sums
  } = t;
  // lines an older lexcase wrote record no `retried`: the count above leaves theirs out, and says so
  const retriesUnrecorded = runRetriesUnrecorded(withTokens);
  // of input, what the endpoint's own prompt cache served: absent when no reply said (not 0)
  const promptCached = runPromptCached(withTokens);
  const promptCacheUnsaid = runPromptCacheUnsaid(withTokens);
  const counted = {
    ...sums,
    ...(promptCached !== undefined ? { promptCached } : {}),
    ...(promptCacheUnsaid ? { promptCacheUnsaid } : {}),
    ...(unreported ? { unreported } : {}),
    ...(cutShort ? { cutShort } : {}),
    ...(filtered ? { filtered } : {}),
    ...(totalOnly ? { totalOnly } : {}),
    ...(totalAbove ? { totalAbove } : {}),
    ...(oneSided ? { oneSided } : {}),
    ...(multiChoice ? { multiChoice, choicesCarried } : {}),
    ...(textOtherAnswer ? { textOtherAnswer } : {}),
    ...(abandoned ? { abandoned } : {}),
    ...(refused ? { refused } : {}),
    ...(retried ? { retried } : {}),
    ...(retriesUnrecorded ? { retriesUnrecorded } : {}),
    ...(earlierAttempts ? { earlierAttempts } : {}),
    ...(underWay.requests ? { interrupted: underWay } : {}),
  };
  // requests were sent when any was cut off or refused, though no call was answered
  if (t.calls === 0 && !t.abandoned && !t.refused && !underWay.requests)
    return { id: 'tokens', title: 'Tokens', markdown: 'No LLM calls (offline run).', json: { ...counted, perItem: 0 } };
  const n = withTokens.length;
  // the per-item figures are over the items whose lines record tokens, failed ones included, as CASE's Tokens line (eval/tokens-per-item.ts)
  const metered = meteredItems(run.results);
  const rows = [
    [promptCached !== undefined ? `input (${promptCachedText(promptCached, promptCacheUnsaid)})` : 'input', num(t.input), perItemTokensText(t.input / n)],
    ['output', num(t.output), perItemTokensText(t.output / n)],
    ['total', num(t.total), perItemTokensText(t.total / n)],
    ['LLM calls', num(t.calls), num(t.calls / n, 2)],
    ['cache hits', num(t.cached), num(t.cached / n, 2)],
  ];
  // calls whose tokens are not in the figures above, and replies that may be truncated: said, never left as a silent 0
  if (t.unreported) rows.push(['calls without usage (endpoint reported none)', num(t.unreported), num(t.unreported / n, 2)]);
  if (t.oneSided) rows.push(['calls with 0 tokens on one side of usage (that side undercounted)', num(t.oneSided), num(t.oneSided / n, 2)]);
  if (t.cutShort) rows.push(['replies cut short (finish_reason "length")', num(t.cutShort), num(t.cutShort / n, 2)]);
  if (t.totalAbove) rows.push(['calls with a total above input + output (the excess in total)', num(t.totalAbove), num(t.totalAbove / n, 2)]);
  if (t.totalOnly) rows.push(['calls with only a total (no input/output split; in total)', num(t.totalOnly), num(t.totalOnly / n, 2)]);
  if (t.filtered) rows.push(['replies stopped by the content filter (finish_reason "content_filter")', num(t.filtered), num(t.filtered / n, 2)]);
  if (t.multiChoice) rows.push(['replies with more than one choice (the first used)', num(t.multiChoice), num(t.multiChoice / n, 2)]);
  if (t.textOtherAnswer) rows.push(['replies whose text named another answer than the one read', num(t.textOtherAnswer), num(t.textOtherAnswer / n, 2)]);
  if (t.abandoned) rows.push(['requests cut off when their item ended (usage in no total)', num(t.abandoned), num(t.abandoned / n, 2)]);
  if (t.refused) rows.push(['requests refused (an error after retries; not in LLM calls)', num(t.refused), num(t.refused / n, 2)]);
  if (t.retried) rows.push(['failed attempts sent again (429, 5xx, timeouts; not in LLM calls)', num(t.retried), num(t.retried / n, 2)]);
  if (underWay.requests) rows.push(['requests sent by items under way at an interrupt (no line; not above)', num(underWay.requests), '']);
  if (underWay.tokens) rows.push(['tokens their answered requests reported (spent by a stopped attempt; not in total)', num(underWay.tokens), '']);
  if (t.earlierAttempts)
    rows.push(['paid by an earlier attempt of this run (cache hits; not in total)', num(t.earlierAttempts), num(t.earlierAttempts / n, 1)]);
  // failed attempts a retry replaced: their lines are gone, their tokens are kept on the new line
  const replaced = runReplacedAttempts(withTokens);
  // what the run spent in all, as far as recorded: the recorded attempts' tokens, those of the attempts a retry replaced,
  // and the cache hits of either that a stopped (killed) attempt of this run paid for — a killed → failed → retried item's
  // hits live only in its replacedAttempts (before, in neither "in all" figure: 4,000 said where the server answered 6,000)
  // and what the items under way at a Ctrl-C or SIGTERM were answered with (interrupts[].tokens), which no line holds
  const spentInAll = t.total + t.earlierAttempts + replaced.total + replaced.earlierAttempts + (underWay.tokens ?? 0);
  // requests of those attempts cut off when their item ended or refused: what they spent is not in `total`, so it is a lower bound
  const atLeast = replaced.abandoned || replaced.refused ? 'at least ' : '';
  if (replaced.attempts) rows.push(['spent on attempts a retry replaced (not above)', num(replaced.total), '']);
  // what those attempts' replies said beside their content (cut short, no usage, …): the run summary's line counts them
  // with the recorded attempts' (runReplyFlags); the rows above are the recorded attempts', so they are said here
  const replacedFlags = replyFlagsText(runReplyFlags(run.results, 'replaced'));
  // resumed from a run dir an older lexcase wrote, which did not count textOtherAnswer, or counted a forced call's text
  // only (eval/item-counts.ts; core/llm/text-beside-call.ts TEXT_OTHER_ANSWER_READING)
  const uncounted = itemsUncounted(run.config, ['itemCounts', 'textOtherAnswerReading']);
  const notes = [
    ...(metered.items < metered.of
      ? [
          `**Per item: ${meteredItemsText(metered)}**: ${metered.of - metered.items === 1 ? 'the other line (written by an older lexcase) records none, so its item is' : `the other ${num(metered.of - metered.items)} lines (written by an older lexcase) record none, so their items are`} in no figure of this table.`,
        ]
      : []),
    ...(replaced.attempts
      ? [
          `**${atLeast ? 'At least ' : ''}${num(replaced.total)} tokens more (${num(replaced.calls)} LLM calls${replacedFlags}${replaced.abandoned ? `; and ${cutOffText(replaced.abandoned)}` : ''}${replaced.refused ? `; and ${refusedText(replaced.refused)}` : ''}${replaced.retried ? `; and ${resentText(replaced.retried)}` : ''}${replaced.earlierAttempts ? `; and ${num(replaced.earlierAttempts)} tokens of ${replaced.attempts === 1 ? 'its' : 'their'} cache hits paid by an earlier, stopped attempt of this run` : ''}) were spent on ${num(replaced.attempts)} failed ${replaced.attempts === 1 ? 'attempt' : 'attempts'} that a retry replaced** (${num(replaced.items)} ${replaced.items === 1 ? 'item' : 'items'}; not in the figures above, which are each item's recorded attempt): ${atLeast || t.earlierAttempts || replaced.earlierAttempts ? 'at least ' : ''}${num(spentInAll)} tokens were spent in all.`,
        ]
      : []),
    ...(t.abandoned
      ? [
          `**${cutOffText(t.abandoned)}**${inAll(t.abandoned, replaced.abandoned, cutOffText)}: a sibling call failed the item while they were in flight (recorded \`abandoned\` in llm/<item>.jsonl); they are not in LLM calls, and what the endpoint spent on them is not in input/output/total, so these may undercount what was spent.`,
        ]
      : []),
    ...(t.refused
      ? [
          `**${refusedText(t.refused)}**${inAll(t.refused, replaced.refused, refusedText)}: they were sent and answered with an error after the retries (recorded with their \`error\` in llm/<item>.jsonl); they are not in LLM calls, and what the endpoint spent on them (if anything) is not in input/output/total.`,
        ]
      : []),
    ...(t.retried
      ? [
          `**${resentText(t.retried)}**${inAll(t.retried, replaced.retried, resentText)}: an attempt answered with HTTP 429 or 5xx, or that timed out, lost its connection or got a malformed body, was sent again (recorded as the exchange's \`retries\` in llm/<item>.jsonl); those attempts are not in LLM calls, and what the endpoint spent on them (a timed-out one may have been processed in full) is not in input/output/total.`,
        ]
      : []),
    ...(underWay.requests
      ? [
          `**${underWayText(underWay)}** (Ctrl-C, SIGTERM, or a kill or a failed write the next run found; config.json \`interrupts\`): those items had no results.jsonl line, so a resume ran them again; their requests (each attempt, retries too, answered or not) are in no figure above, nor in LLM calls, cut off, refused or sent again, and what the endpoint spent on them is in no total${underWay.tokens ? ` — ${underWayTokensText(underWay.tokens)}` : ''}.`,
        ]
      : []),
    ...(retriesUnrecorded
      ? [
          `**${retriesUnrecordedText(retriesUnrecorded)}**: their results.jsonl lines have no \`tokens.retried\`, so the failed attempts sent again for those items (HTTP 429/5xx, timeouts) are not counted here${t.retried ? ' (the count above covers the other items)' : ''}, and the requests the run sent may be undercounted.`,
        ]
      : []),
    ...(t.earlierAttempts
      ? [
          `**${cacheHitsText(t.cached, t.earlierAttempts)}**: an attempt of this run that was stopped (killed: no handler counted its replies) wrote those replies to the cache before this one started, and this attempt was answered from it; at least ${num(spentInAll)} tokens were spent on the run in all${replaced.attempts ? ' (the attempts a retry replaced included)' : ''}${underWay.tokens ? ' (the tokens of the items under way at an interrupt included)' : ''}. ${underWay.tokens ? "A reply a Ctrl-C or SIGTERM counted in the interrupt's tokens is not counted again here." : 'Requests that attempt had in flight when it stopped are in neither figure (no reply was recorded).'}`,
        ]
      : []),
    ...(t.unreported
      ? [
          `**The endpoint reported no token usage for ${num(t.unreported)} of ${num(t.calls)} calls**: their tokens are not in input/output/total, so these undercount what was spent, and token budgets (CASE advocates' --max-tokens) could not count them.`,
        ]
      : []),
    ...(t.oneSided
      ? [
          `**The endpoint reported 0 (or no) tokens on one side of usage for ${num(t.oneSided)} of ${num(t.calls)} calls** (prompt_tokens 0 beside completion tokens, as Ollama sends for a prompt it cached, or no completion_tokens): no request costs 0 prompt tokens and no answer 0 completion tokens, so input or output and the total undercount what was spent, and token budgets (CASE advocates' --max-tokens) could not count the missing side.`,
        ]
      : []),
    ...(t.totalOnly
      ? [
          `**The endpoint reported only a total for ${num(t.totalOnly)} of ${num(t.calls)} calls** (total_tokens, no prompt/completion split): their tokens are in total, not in input/output; token budgets (CASE advocates' --max-tokens) counted those totals, as they count prompt + completion for the other calls.`,
        ]
      : []),
    ...(t.totalAbove
      ? [
          `**The endpoint reported a total above input + output for ${num(t.totalAbove)} of ${num(t.calls)} calls** (total_tokens larger than prompt_tokens + completion_tokens: a thinking model's reasoning counted in the total alone, as gateways in front of Gemini send it): the excess is in total, not in input or output, so total is more than input + output.`,
        ]
      : []),
    ...(t.cutShort
      ? [
          `**${num(t.cutShort)} ${t.cutShort === 1 ? 'reply was' : 'replies were'} cut short at the token limit** (finish_reason "length"): their answers may be truncated; raise llm.maxTokens (LEXCASE_LLM_MAX_TOKENS) and rerun.`,
        ]
      : []),
    ...(t.multiChoice
      ? [
          `**${multiChoiceText(t.multiChoice, t.choicesCarried)}**: the endpoint ignored \`n\` (lexcase asks for one choice) and sent several; each reply's usage, which covers all its choices, is counted once.`,
        ]
      : []),
    ...(t.textOtherAnswer
      ? [
          `**${textOtherAnswerText(t.textOtherAnswer)}**: the reply's text named as its answer another option letter or Yes/No label (or several, none of them the one read) than the answer read — in tool mode its text (\`content\`) or reasoning beside its forced call's arguments, in json_schema or prompt mode its reasoning field or the prose around its JSON object beside its answer field; the call's or field's is the answer recorded (each is logged with both answers)${uncounted ? `; ${uncountedText(uncounted, READING_BY)}` : ''}.`,
        ]
      : uncounted
        ? [
            `**Replies whose text named another answer than the one read were counted for the items resumed only** (none was found there): ${uncountedText(uncounted, READING_BY)} (eval/item-counts.ts).`,
          ]
        : []),
    ...(t.filtered
      ? [
          `**${num(t.filtered)} ${t.filtered === 1 ? 'reply was' : 'replies were'} stopped by the endpoint's content filter** (finish_reason "content_filter"): their content may be cut or empty, and what was read from it is in the results as any answer.`,
        ]
      : []),
  ];
  const wall = wallTime(run.results, replaced.attempts);
  return {
    id: 'tokens',
    title: 'Tokens',
    markdown: `${table(['', 'total', 'per item'], rows)}\n\n${wall.text}${notes.map((x) => `\n\n${x}`).join('')}`,
    json: {
      ...counted,
      ...(uncounted
        ? { textOtherAnswerUncountedItems: uncounted.items, ...(uncounted.failed ? { textOtherAnswerUncountedFailedItems: uncounted.failed } : {}) }
        : {}),
      items: n,
      ...(metered.items < metered.of ? { itemsWithoutTokens: metered.of - metered.items } : {}),
      perItem: t.total / n,
      msPerItem: wall.msPerItem,
      msItems: wall.items,
      ...(wall.fromCache ? { msFromCacheItems: wall.fromCache } : {}),
      ...(replaced.attempts
        ? {
            replacedAttempts: {
              items: replaced.items,
              attempts: replaced.attempts,
              total: replaced.total,
              calls: replaced.calls,
              ...(replaced.abandoned ? { abandoned: replaced.abandoned } : {}),
              ...(replaced.refused ? { refused: replaced.refused } : {}),
              ...(replaced.retried ? { retried: replaced.retried } : {}),
              ...(replaced.earlierAttempts ? { earlierAttempts: replaced.earlierAttempts } : {}),
            },
          }
        : {}),
    },
  };
};

/**
 * " (2 requests refused … in all, with the 1 of the failed attempts a retry replaced: the count the
 * counts line, CASE's Tokens line and the explorer give)": a note's count is the recorded attempts'
 * (the table's rows), the other surfaces count the whole run (eval/run-counts.ts); where a replaced
 * attempt adds some, the note gives the whole-run figure too, so the two numbers read as one. '' when none.
 */
function inAll(recorded: number, replaced: number, text: (n: number) => string): string {
  return replaced
    ? ` (${text(recorded + replaced)} in all, with the ${num(replaced)} of the failed attempts a retry replaced: the count the counts line, CASE's Tokens line and the explorer give)`
    : '';
}

/** An item every LLM call of which was a cache hit: its wall time is the cache's, not the endpoint's. */
const answeredFromCache = (r: ResultRecord) => !!r.tokens && r.tokens.calls > 0 && r.tokens.cached >= r.tokens.calls;

/**
 * The mean wall time of the items timed: every result line (older lines without tokens too), less
 * those answered wholly from the response cache (near 0 s; counted apart, or alone when all are);
 * failed attempts a retry replaced recorded no time, and the line says so.
 */
function wallTime(results: ResultRecord[], replacedAttempts: number): { text: string; msPerItem: number; items: number; fromCache: number } {
  const cached = results.filter(answeredFromCache);
  const live = results.filter((r) => !answeredFromCache(r));
  const mean = (rs: ResultRecord[]) => rs.reduce((a, r) => a + r.ms, 0) / rs.length;
  const s = (rs: ResultRecord[]) => `${(mean(rs) / 1000).toFixed(2)} s`;
  const items = (k: number) => `${num(k)} ${k === 1 ? 'item' : 'items'}`;
  const notTimed = replacedAttempts
    ? `; ${num(replacedAttempts)} failed ${replacedAttempts === 1 ? 'attempt' : 'attempts'} a retry replaced ${replacedAttempts === 1 ? 'is' : 'are'} not timed`
    : '';
  if (!live.length)
    return {
      text: `Wall time per item: ${s(cached)} (mean of ${items(cached.length)}, all answered from the response cache${notTimed}).`,
      msPerItem: mean(cached),
      items: cached.length,
      fromCache: cached.length,
    };
  const apart = cached.length ? `; ${items(cached.length)} answered wholly from the response cache left out, ${s(cached)} mean` : '';
  return {
    text: `Wall time per item: ${s(live)} (mean of ${items(live.length)}${apart}${notTimed}).`,
    msPerItem: mean(live),
    items: live.length,
    fromCache: cached.length,
  };
}
