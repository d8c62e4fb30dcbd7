/**
 * The LLM exchanges of a run's item, as the run dir records them (read by the explorer's LLM-call
 * inspector):
 *
 *   <run>/exchanges/<item>.jsonl   one JSON object per LLM call, in call order (file name as
 *                                  traces/ names it, .jsonl instead of .json)
 *
 * Each line: { stage, messages: [{role, content}], reply, toolCalls?, error?, ms?, tokens?,
 * cached?, at? } — `stage` names the step of the system ("advocate A", "juror 2", "debater B r1",
 * "judge"); `error` is the transport, parse or schema-validation error of THIS call (the failing
 * call carries it). Writing the file is the replay recorder's job (issue 27); a run without it
 * gets no exchanges here. Unreadable lines are reported, never thrown.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { traceFileName } from './run-dir.js';

export interface LlmExchange {
  stage: string;
  messages: { role: string; content: string }[];
  reply: string | null;
  toolCalls?: { name: string; args: unknown }[];
  error?: string;
  ms?: number;
  tokens?: { input?: number; output?: number; total?: number };
  cached?: boolean;
  at?: string;
}

export const EXCHANGES_DIR = 'exchanges';
export const exchangesPath = (dir: string, id: string): string => join(dir, EXCHANGES_DIR, traceFileName(id).replace(/\.json$/, '.jsonl'));

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Parse an exchanges file's text: the exchanges and a note per unreadable line (line numbers 1-based). */
export function parseExchanges(body: string): { exchanges: LlmExchange[]; problems: string[] } {
  const exchanges: LlmExchange[] = [];
  const problems: string[] = [];
  body.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line);
    } catch (e) {
      problems.push(`line ${i + 1}: not JSON (${(e as Error).message})`);
      return;
    }
    if (!o || typeof o !== 'object' || Array.isArray(o)) {
      problems.push(`line ${i + 1}: not an object`);
      return;
    }
    const t = (o.tokens ?? {}) as Record<string, unknown>;
    exchanges.push({
      stage: text(o.stage) || `call ${exchanges.length + 1}`,
      messages: Array.isArray(o.messages) ? o.messages.map((m) => ({ role: text((m as Record<string, unknown>)?.role) || '?', content: text((m as Record<string, unknown>)?.content) })) : [],
      reply: o.reply === undefined || o.reply === null ? null : text(o.reply),
      ...(Array.isArray(o.toolCalls) ? { toolCalls: o.toolCalls.map((c) => ({ name: text((c as Record<string, unknown>)?.name), args: (c as Record<string, unknown>)?.args })) } : {}),
      ...(o.error !== undefined && o.error !== null ? { error: text(o.error) } : {}),
      ...(num(o.ms) !== undefined ? { ms: num(o.ms) } : {}),
      ...(o.tokens ? { tokens: { input: num(t.input), output: num(t.output), total: num(t.total) } } : {}),
      ...(typeof o.cached === 'boolean' ? { cached: o.cached } : {}),
      ...(typeof o.at === 'string' ? { at: o.at } : {}),
    });
  });
  return { exchanges, problems };
}

/** The item's recorded exchanges, or undefined when the run recorded none for it. */
export async function readExchanges(dir: string, id: string): Promise<{ exchanges: LlmExchange[]; problems: string[] } | undefined> {
  const f = exchangesPath(dir, id);
  if (!existsSync(f)) return undefined;
  return parseExchanges(await readFile(f, 'utf8'));
}
