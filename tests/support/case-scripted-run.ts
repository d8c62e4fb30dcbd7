/**
 * The setup of the process tests that run CASE (the built `lexcase run case`, or the library) on the
 * first Bar Exam val items: a small index of their gold passages (small-barexam-index.ts) in a temp
 * dir, and an OpenAI-compatible server on 127.0.0.1 whose advocates search once with bm25 and then
 * pick the first passage the search showed; a juror's request is answered by the test's `juror`.
 * Registers its own beforeAll / afterAll: call it at the top of a test file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { buildSmallBarexamIndex } from './small-barexam-index.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptReply } from './scripted-openai-server.js';

type Usage = ScriptReply['usage'];

export interface CaseScriptedRunOptions {
  /** The temp dir's name prefix. */
  prefix: string;
  /** How many val items the index holds the gold passages of (and `val` holds). */
  items: number;
  /** A juror request's reply (given its messages' text), or undefined for a request that is not a juror's. */
  juror: (text: string, val: readonly Question[]) => ScriptReply | undefined;
  /** The `k` an advocate's search asks for. */
  searchK: number;
  /** The usage an advocate's search and pick replies report (default: the server's rough counts). */
  usage?: { search: Usage; pick: Usage };
}

export interface CaseScriptedRun {
  dir: string;
  index: string;
  val: Question[];
  srv: ScriptedServer;
  /** The LLM settings of a child `lexcase` process against the server. */
  env(): Record<string, string>;
}

const messages = (req: RecordedRequest) => req.body.messages as { role: string; content?: unknown }[];

/** A request's messages' text, joined. */
export const requestText = (req: RecordedRequest): string =>
  messages(req)
    .map((m) => (typeof m.content === 'string' ? m.content : ''))
    .join('\n');

export function caseScriptedRun(o: CaseScriptedRunOptions): CaseScriptedRun {
  const run = {
    dir: '',
    index: '',
    val: [] as Question[],
    srv: undefined as unknown as ScriptedServer,
    env: () => ({ LEXCASE_LLM_BASE_URL: run.srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_RETRY_BASE_MS: '1' }),
  };
  const reply = (req: RecordedRequest): ScriptReply => {
    const all = requestText(req);
    const vote = o.juror(all, run.val);
    if (vote) return vote;
    const tools = messages(req).filter((m) => m.role === 'tool');
    if (tools.length === 0) {
      const hyp = (all.split('Hypothesis to support:\n')[1] ?? '').trim();
      return { toolCalls: [{ name: 'bm25_search', args: { query: hyp.slice(0, 200), k: o.searchK } }], ...(o.usage ? { usage: o.usage.search } : {}) };
    }
    const shown: string[] = tools.flatMap((m) => JSON.parse(String(m.content)).results.map((r: { id: string }) => r.id));
    return {
      content: JSON.stringify({ analysis: 'picked', evidence: [{ id: shown[0], justification: 'on point' }] }),
      ...(o.usage ? { usage: o.usage.pick } : {}),
    };
  };
  beforeAll(async () => {
    run.dir = mkdtempSync(join(tmpdir(), o.prefix));
    run.index = join(run.dir, 'idx');
    run.val = (await loadQuestions('barexam', 'val')).slice(0, o.items);
    await buildSmallBarexamIndex(run.index, { items: o.items });
    run.srv = await startScriptedServer(reply);
  }, 120_000);
  afterAll(async () => {
    await run.srv?.close();
    rmSync(run.dir, { recursive: true, force: true });
  });
  return run;
}
