/**
 * The LLM-call inspector's data (GET /api/run/calls?run=&item=): the item's recorded exchanges
 * (`<run>/llm/<item>.jsonl`, the files the runner records and a replay reads; eval/llm-exchanges.ts
 * gives each as stage, prompt messages, reply, error, latency, tokens) when the run dir has them; otherwise the calls as far as the item's trace shows them — each system's
 * steps in order with the reply it recorded and the error attached to the step that failed —
 * marked `source: "trace"` (no prompts, latencies or per-call tokens: the run recorded none). The
 * runner's per-item totals (calls, tokens, ms) come with both.
 */
import type { TraceKind } from '../../eval/systems.js';
import { guessTraceKind } from '../common/trace-kind-guess.js';
import { exchangesReadPath, readInspectorCalls, type LlmExchange } from '../../eval/llm-exchanges.js';
import { readResults, readTraceFor, traceReadPath } from '../../eval/run-dir.js';
import { notFound } from '../../serve/http/http-util.js';
import { servable, type RunEntry } from './runs.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
/** One call in the inspector: a recorded exchange, or a step of the trace (then without prompt, latency or tokens). */
export type InspectorCall = LlmExchange;

const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);
const txt = (v: unknown): string | null => (v === undefined || v === null ? null : typeof v === 'string' ? v : JSON.stringify(v, null, 1));
const call = (stage: string, reply: unknown, error?: unknown, toolCalls?: { name: string; args: unknown }[]): InspectorCall => ({
  stage,
  messages: [],
  reply: txt(reply),
  ...(toolCalls?.length ? { toolCalls } : {}),
  ...(error ? { error: String(error) } : {}),
});

/** The calls a trace shows, per trace kind of the run's system (see the module comment); `kind` omitted: the trace's shape decides (a run dir that recorded no system). */
export function callsFromTrace(t: any, kind: TraceKind = guessTraceKind(t)): InspectorCall[] {
  if (!t || typeof t !== 'object') return [];
  const out: InspectorCall[] = [];
  if (kind === 'case') {
    for (const a of arr(t.advocates)) {
      const tools = arr(a.toolCalls).map((c) => ({ name: String(c.tool ?? '?'), args: { query: c.query } }));
      out.push(
        call(
          `advocate ${a.key ?? '?'}${a.letter && a.letter !== a.key ? ` (option ${a.letter})` : ''}`,
          // the reply the advocate could not use (raw) is the reply it got
          typeof a.raw === 'string'
            ? a.raw
            : (a.analysis ?? (arr(a.evidence).length ? { evidence: arr(a.evidence).map((e) => ({ id: e.id, justification: e.justification })) } : null)),
          a.error,
          tools,
        ),
      );
    }
    arr(t.jurors).forEach((j, i) => out.push(call(`juror ${i + 1}: ${j.persona ?? ''}`.trim(), { reasoning: j.reasoning, vote: j.vote ?? null }, j.error)));
    return out;
  }
  if (kind === 'threeply') {
    for (const s of arr(t.steps))
      out.push(call([s.role, s.ply, typeof s.round === 'number' && s.round > 0 ? `revision ${s.round}` : null].filter(Boolean).join(' · '), s.output, s.error));
    return out;
  }
  if (kind === 'mad') {
    for (const r of arr(t.rounds))
      for (const b of arr(r.briefs))
        out.push(
          call(
            `debater ${b.letter} · round ${b.round ?? r.round}`,
            b.argument ? { argument: b.argument, rebuttal: b.rebuttal, claims: b.claims } : null,
            b.error,
            [
              ...(b.request ? [{ name: String(b.request.tool), args: { query: b.request.query } }] : []),
              // requests the turn refused never ran: the model still made them
              ...arr(b.refused).map((x) => ({ name: String(x.name ?? '?'), args: { refused: x.reason } })),
            ],
          ),
        );
    if (t.crossExamination) {
      out.push(
        call(
          'cross-examiner',
          { questions: arr(t.crossExamination.questions).map((q) => ({ letter: q.letter, question: q.question })) },
          t.crossExamination.error,
        ),
      );
      for (const q of arr(t.crossExamination.questions)) out.push(call(`cross-answer ${q.letter}`, q.answer));
    }
    if (t.judge || t.error) out.push(call('judge', t.judge ?? null, t.judge ? undefined : t.error));
    return out;
  }
  if (kind === 'emar') {
    if (t.facts) out.push(call('fact extraction', { facts: t.facts }));
    out.push(call('proponent · depth 0', t.initial));
    for (const r of arr(t.rounds)) {
      out.push(call(`opponent · depth ${r.epoch}`, r.opponent, r.opponent?.error));
      out.push(call(`proponent · depth ${r.epoch}`, r.proponent, r.proponent?.error));
    }
    if (t.judge || t.error) out.push(call('judge', t.judge ?? null, t.error));
    return out;
  }
  // a baseline's (or an ACAL baseline's, view 'other') one answer, where the trace holds it
  if (kind === 'baseline' || t.raw !== undefined || t.reasoning !== undefined) {
    if (t.raw !== undefined || t.reasoning !== undefined || t.error)
      out.push(call(`answer (${t.mode ?? t.system ?? 'baseline'})`, t.raw ?? { reasoning: t.reasoning }, t.error));
    return out;
  }
  return out;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Where an item's recorded calls and its totals (results.jsonl `tokens`) disagree, and the calls cut
 * off when the item ended (their tokens, if any, are in no total), as sentences; [] when they agree.
 * The totals count each reply (endpoint or cache) once, with its tokens; a request that failed has none.
 */
export function totalsProblems(calls: LlmExchange[], totals: { calls: number | null; tokens: number | null }): string[] {
  const out: string[] = [];
  const cut = calls.filter((c) => c.abandoned && !c.unsent).length;
  if (cut)
    out.push(
      `${plural(cut, 'call was', 'calls were')} still in flight when the item ended and cut off: no reply, and what the endpoint spent on ${cut === 1 ? 'it' : 'them'} (if anything) is in no total`,
    );
  const unsent = calls.filter((c) => c.abandoned && c.unsent).length;
  if (unsent) out.push(`${plural(unsent, 'call was', 'calls were')} still waiting for a concurrency slot when the item ended: never sent`);
  const replies = calls.filter((c) => c.reply !== null && !c.abandoned);
  const tokens = replies.reduce(
    (n, c) => n + (c.tokens?.input !== undefined && c.tokens.output !== undefined ? c.tokens.input + c.tokens.output : (c.tokens?.total ?? 0)),
    0,
  );
  const callsDiffer = totals.calls !== null && totals.calls !== replies.length;
  if (callsDiffer || (totals.tokens !== null && totals.tokens !== tokens))
    out.push(
      `the recorded calls do not add up to the item's totals: ${plural(replies.length, 'reply', 'replies')} recorded (${plural(tokens, 'token', 'tokens')}), the totals count ${plural(totals.calls ?? 0, 'call', 'calls')} (${plural(totals.tokens ?? 0, 'token', 'tokens')})` +
        (totals.calls !== null && totals.calls > replies.length
          ? `: ${plural(totals.calls - replies.length, 'call is', 'calls are')} missing here (a run by an older lexcase wrote an item's calls before those still in flight had finished)`
          : ''),
    );
  return out;
}

export async function runCalls(run: RunEntry, item: string) {
  const parsed = await readResults(run.dir);
  const result = parsed.records.filter((r) => r.id === item).pop();
  if (!result) throw notFound(`no item "${item}" in run "${run.id}"`);
  const totals = {
    calls: result.tokens?.calls ?? null,
    tokens: result.tokens?.total ?? null,
    ms: result.ms ?? null,
    error: result.error ?? null,
    // requests that got no reply, not in `calls` (core/llm/usage.ts), yet rows of the panel's table
    ...(result.tokens?.refused ? { refused: result.tokens.refused } : {}),
    ...(result.tokens?.abandoned ? { abandoned: result.tokens.abandoned } : {}),
  };
  if (servable(run.root, exchangesReadPath(run.dir, item))) {
    const rec = await readInspectorCalls(run.dir, item).catch(() => undefined);
    if (rec) {
      // calls still waiting for a concurrency slot when the item ended: rows of the table, never sent, so in no
      // results.jsonl count (not cut off); counted from the exchanges so the totals name every row (before, left out)
      const unsent = rec.exchanges.filter((c) => c.abandoned && c.unsent).length;
      const withUnsent = { ...totals, ...(unsent ? { unsent } : {}) };
      return { source: 'recorded' as const, calls: rec.exchanges, problems: [...rec.problems, ...totalsProblems(rec.exchanges, totals)], totals: withUnsent };
    }
  }
  // the runner counted no LLM call for the item (an offline run): its trace's steps are not LLM calls
  if (totals.calls === 0) return { source: 'trace' as const, calls: [] as InspectorCall[], problems: [] as string[], totals };
  const trace = servable(run.root, traceReadPath(run.dir, item)) ? (await readTraceFor(run.dir, result).catch(() => undefined))?.trace : undefined;
  const calls = callsFromTrace(trace, run.traceKind);
  // an item-level error that no step carries goes on the last call (where the item stopped)
  if (result.error && calls.length && !calls.some((c) => c.error)) calls[calls.length - 1].error = result.error;
  return { source: 'trace' as const, calls, problems: [] as string[], totals };
}
