/**
 * Turns an agent transcript (AI messages with tool_calls, then ToolMessages) into ToolCallRecords,
 * and collects every passage the tools returned (best rank, snippet) as the advocate's candidate
 * pool. Search tools' hits come from the ToolMessage's typed artifact (retrieval/tools; real ids
 * even when the model saw passage handles); a tool message without one is read from its JSON text
 * {results: [{id, score, rank, snippet}]}; rewrite_query's output ({query} or plain text) is kept
 * as `output`. A tool call whose arguments were not valid JSON (LangChain's invalid_tool_calls) is
 * recorded with its raw arguments and an error. A call identical to an earlier one of the same reply
 * (same tool and arguments; agents/common/repeated-tool-calls.ts) is recorded `repeated`: it ran once,
 * and the passages it returned are scored once.
 */
import type { BaseMessage } from '@langchain/core/messages';
import { messageText } from '../../core/llm/structured.js';
import type { SearchArtifact } from '../../retrieval/tools/search-tool.js';
import type { PassageHandles } from '../common/passage-handles.js';
import type { ToolCallRecord } from './types.js';
import { spentTokens } from '../../core/llm/spent-tokens.js';
import { repeatsIn } from '../common/repeated-tool-calls.js';

export interface Candidate {
  id: string;
  snippet: string;
  /** Reciprocal-rank evidence score summed over the tool calls that returned the id. */
  score: number;
  bestRank: number;
}

export const RRF_K = 60;

/** The message lexcase's token limit appends when it ends the advocate's loop (advocate.ts). */
export const TOKEN_LIMIT_NOTE = '[lexcase: advocate token limit reached]';

/**
 * An AI message a limit middleware appends when it ends the loop — langchain's model-call limit
 * ("Model call limits exceeded: …"), lexcase's token limit — rather than a model's reply: no model call.
 */
export function isLimitNote(m: BaseMessage): boolean {
  if (m.getType() !== 'ai' || ((m as unknown as { tool_calls?: unknown[] }).tool_calls ?? []).length) return false;
  const text = messageText(m);
  return text === TOKEN_LIMIT_NOTE || /^Model call limits exceeded/.test(text);
}

interface ParsedHit {
  id: string;
  rank: number;
  snippet: string;
}

export function parseToolOutput(text: string): { hits: ParsedHit[]; output?: string; error?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return /error/i.test(text.slice(0, 40)) ? { hits: [], error: text.slice(0, 300) } : { hits: [], output: text.slice(0, 500) };
  }
  const obj = (json ?? {}) as Record<string, unknown>;
  const results = Array.isArray(obj.results) ? obj.results : Array.isArray(json) ? (json as unknown[]) : [];
  const hits: ParsedHit[] = [];
  results.forEach((r, i) => {
    const h = (r ?? {}) as Record<string, unknown>;
    if (typeof h.id !== 'string' && typeof h.id !== 'number') return;
    hits.push({
      id: String(h.id),
      rank: typeof h.rank === 'number' ? h.rank : i + 1,
      snippet: typeof h.snippet === 'string' ? h.snippet : typeof h.text === 'string' ? h.text : '',
    });
  });
  // rewrite_query answers {query, style, ...}; search tools echo their query next to `results`.
  const isSearch = Array.isArray(obj.results);
  const output = isSearch ? undefined : typeof obj.query === 'string' ? obj.query : typeof obj.rewritten === 'string' ? obj.rewritten : undefined;
  const error = typeof obj.error === 'string' ? obj.error : undefined;
  return { hits, output, error };
}

function fromArtifact(a: SearchArtifact): { hits: ParsedHit[]; output?: string; error?: string } {
  return { hits: a.results.map((r) => ({ id: r.id, rank: r.rank, snippet: r.snippet })), ...(a.error ? { error: a.error } : {}) };
}

function queryOf(args: Record<string, unknown>): string {
  for (const k of ['query', 'q', 'text', 'hypothesis']) if (typeof args[k] === 'string') return args[k] as string;
  return JSON.stringify(args);
}

/**
 * With `handles`, the tool outputs carry passage handles (P1..): ids are mapped back to real ids. With
 * `offered`, the names of the tools offered: a call naming another (a tool name is matched exactly) is marked `notOffered`.
 */
export function extractToolTrace(
  messages: BaseMessage[],
  handles?: PassageHandles,
  offered?: readonly string[],
): { calls: ToolCallRecord[]; candidates: Map<string, Candidate>; steps: number } {
  const pending = new Map<string, ToolCallRecord>();
  const calls: ToolCallRecord[] = [];
  const candidates = new Map<string, Candidate>();
  let steps = 0;
  for (const m of messages) {
    const type = m.getType();
    if (type === 'ai') {
      if (isLimitNote(m)) continue; // the loop's end, not a model call: `steps` counts the model's replies
      steps++;
      const tcs = (m as unknown as { tool_calls?: { id?: string; name: string; args: Record<string, unknown> }[] }).tool_calls ?? [];
      const repeats = repeatsIn(tcs);
      tcs.forEach((tc, i) => {
        const rec: ToolCallRecord = {
          tool: tc.name,
          query: queryOf(tc.args ?? {}),
          ids: [],
          step: steps,
          ...(repeats[i] !== undefined ? { repeated: true as const } : {}),
          ...(offered && !offered.includes(tc.name) ? { notOffered: true as const } : {}),
        };
        calls.push(rec);
        if (tc.id && !rec.repeated) pending.set(tc.id, rec); // a repeat's answer is its first call's: its passages not scored again
      });
      // Tool calls whose arguments were not valid JSON never ran; they are kept with the raw arguments.
      const bad = (m as unknown as { invalid_tool_calls?: { name?: string; args?: unknown; error?: string }[] }).invalid_tool_calls ?? [];
      for (const tc of bad)
        calls.push({
          tool: tc.name ?? '(unknown)',
          query: tc.args === undefined ? '' : typeof tc.args === 'string' ? tc.args : JSON.stringify(tc.args), // a server may send an object
          ids: [],
          step: steps,
          error: `malformed tool-call arguments: ${tc.error ?? 'not valid JSON'}`,
        });
    } else if (type === 'tool') {
      const id = (m as unknown as { tool_call_id?: string }).tool_call_id;
      const rec = id ? pending.get(id) : undefined;
      if (!rec) continue;
      // search tools hand their hits over as a typed artifact (real ids); other tools (rewrite_query) as text
      const artifact = (m as unknown as { artifact?: SearchArtifact }).artifact;
      let parsed: ReturnType<typeof parseToolOutput>;
      if (artifact && Array.isArray(artifact.results)) parsed = fromArtifact(artifact);
      // a call the loop answered as failed (tool-error-text.ts: arguments the schema refused), whatever its words
      else if ((m as unknown as { status?: string }).status === 'error') parsed = { hits: [], error: messageText(m).slice(0, 300) };
      else {
        parsed = parseToolOutput(messageText(m));
        if (handles) for (const h of parsed.hits) h.id = handles.resolve(h.id);
      }
      rec.ids = parsed.hits.map((h) => h.id);
      if (parsed.output !== undefined) rec.output = parsed.output;
      if (parsed.error !== undefined) rec.error = parsed.error;
      for (const h of parsed.hits) {
        const c = candidates.get(h.id) ?? { id: h.id, snippet: h.snippet, score: 0, bestRank: h.rank };
        c.score += 1 / (RRF_K + h.rank);
        c.bestRank = Math.min(c.bestRank, h.rank);
        if (!c.snippet && h.snippet) c.snippet = h.snippet;
        candidates.set(h.id, c);
      }
    }
  }
  return { calls, candidates, steps };
}

/** Sum of usage_metadata.total_tokens over AI messages: the conversation's size, what the advocate's token budget counts (cached replies included). */
export function tokensOf(messages: BaseMessage[]): number {
  let t = 0;
  for (const m of messages) {
    const u = (m as unknown as { usage_metadata?: { total_tokens?: number } }).usage_metadata;
    if (u?.total_tokens) t += u.total_tokens;
  }
  return t;
}

/** Tokens the conversation's replies spent on the endpoint: replies served from the response cache spent none (core/llm/spent-tokens.ts). */
export function spentTokensOf(messages: BaseMessage[]): number {
  return messages.reduce((t, m) => t + spentTokens(m), 0);
}
