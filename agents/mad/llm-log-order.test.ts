/**
 * Two identical MAD runs write identical llm/<item>.jsonl logs, apart from timings. A round's
 * debaters (and the cross-examination's answers) are asked at once; each exchange was numbered
 * (`n`) and written in the order its reply came back, so at llm.concurrency > 1 two runs of the same
 * item wrote their exchanges in different orders (a replay matched them by key, so results were
 * right, but the logs differed). Now they are in the order of the debate: round, then debater
 * letter, then each debater's calls in turn (core/llm/record-replay.ts inCallBranches).
 *
 * Through the real @langchain/openai client against a scripted server on 127.0.0.1 that holds one
 * debater's reply until another's has been sent: in the first run every round's replies come back
 * D, C, B, A; in the second A, B, C, D — no timing, the order is forced.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { setLogLevel } from '../../core/log.js';
import { deriveSeed } from '../../core/rng.js';
import { runExperiment } from '../../eval/runner.js';
import type { SystemContext } from '../../eval/types.js';
import { createRetrievalTools } from '../../retrieval/tools/index.js';
import { startScriptedServer, type RecordedRequest, type ScriptReply, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, without } from '../case/test-support/fixtures.js';
import { createMad } from './debate.js';
import { briefReply, debaterLetter, judgeReply, roleOf, roundOf } from './test-support/script.js';

let srv: ScriptedServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const corpus = without(PASSAGES, ['gold0']);
const LETTERS = ['A', 'B', 'C', 'D'];
/** The letters of the round-1 debater replies, in the order the server sent them. */
const sentRound1: string[] = [];

function ctx(url: string): SystemContext {
  const llm = createChatModel(
    llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, concurrency: 4, maxRetries: 1, retryBaseMs: 1, retryMaxMs: 5, timeoutMs: 20000 }),
  );
  const bm25 = keywordRetriever('bm25', corpus);
  return {
    seed: deriveSeed(7, QUESTION.id),
    tools: createRetrievalTools({ retrievers: { bm25 }, docs: { get: getPassageFrom(corpus) } }),
    retrievers: { bm25 },
    llm,
    getPassage: getPassageFrom(corpus),
    options: {},
  };
}

/**
 * Replies by role (script.ts); the concurrent replies of each group (a round's debaters, the
 * cross-examination's answers) are sent in `order` of their letters: each waits until the one
 * before it in `order` has been answered.
 */
function forcedOrder(order: string[]) {
  const sent = new Map<string, () => void>();
  const answered = new Map<string, Promise<void>>();
  const gate = (key: string) => {
    if (!answered.has(key)) answered.set(key, new Promise<void>((r) => sent.set(key, r)));
    return answered.get(key)!;
  };
  const fixed = { completionId: 'chatcmpl-fixed' };
  return async (req: RecordedRequest): Promise<ScriptReply> => {
    const role = roleOf(req);
    if (role === 'judge') return { ...judgeReply('B'), ...fixed };
    if (role === 'cross-examiner')
      return { content: JSON.stringify({ questions: LETTERS.map((l) => ({ letter: l, question: `Q-${l}: which rule makes your option right?` })) }), ...fixed };
    const letter = debaterLetter(req);
    const group = role === 'cross-answer' ? 'cross' : `r${roundOf(req)}`;
    const before = order[order.indexOf(letter) - 1];
    if (before) await gate(`${group}-${before}`);
    if (role === 'debater' && roundOf(req) === 1) sentRound1.push(letter);
    const reply = role === 'cross-answer' ? { content: JSON.stringify({ answer: `ANS-${letter}: FRE 402` }) } : briefReply(letter, roundOf(req), { req });
    setImmediate(() => {
      gate(`${group}-${letter}`);
      sent.get(`${group}-${letter}`)!();
    });
    return { ...reply, ...fixed };
  };
}

/** One MAD run (2 rounds, cross-examination) whose replies come back in `order`; its llm/*.jsonl without timings. */
async function madLogs(order: string[]): Promise<{ logs: Record<string, unknown[]>; replyOrder: string[] }> {
  srv = await startScriptedServer(forcedOrder(order));
  const dir = mkdtempSync(join(tmpdir(), 'lexcase-mad-log-order-'));
  dirs.push(dir);
  setLogLevel('silent');
  try {
    const r = await runExperiment({
      runDir: dir,
      system: createMad({ rounds: 2, topology: 'full', crossExaminer: true, k: 2 }),
      items: [QUESTION],
      gold: (q) => q.answer,
      makeContext: () => ctx(srv!.url),
      config: { system: 'mad/mad', rounds: 2 },
      seed: 7,
    });
    expect(r).toMatchObject({ ran: 1, failed: 0 });
  } finally {
    setLogLevel('info');
  }
  const logs: Record<string, unknown[]> = {};
  for (const f of readdirSync(join(dir, 'llm')).filter((n) => n.endsWith('.jsonl')))
    logs[f] = readFileSync(join(dir, 'llm', f), 'utf8')
      .trim()
      .split('\n')
      .map((l) => {
        const { ms: _ms, queuedMs: _q, at: _at, ...rest } = JSON.parse(l);
        return rest;
      });
  const replyOrder = sentRound1.splice(0);
  await srv.close();
  srv = undefined;
  return { logs, replyOrder };
}

describe("MAD's llm/<item>.jsonl under concurrency", () => {
  it('is the same for two identical runs whose concurrent replies came back in opposite orders (timings aside), in debate order', async () => {
    const first = await madLogs([...LETTERS].reverse());
    const second = await madLogs(LETTERS);
    const [file] = Object.keys(first.logs);
    const exchanges = first.logs[file] as { n: number; stage?: string; request: { messages: unknown } }[];
    // 4 openings, 4 rebuttals, the cross-examiner, 4 answers, the judge
    expect(exchanges.length).toBe(14);
    // the replies came back in opposite orders, the logs are the same
    expect(first.replyOrder).toEqual(['D', 'C', 'B', 'A']);
    expect(second.replyOrder).toEqual(LETTERS);
    expect(second.logs).toEqual(first.logs);
    expect(exchanges.map((x) => x.n)).toEqual([...exchanges.keys()]);
    // in the debate's order: round 1 by letter, round 2 by letter, the cross-examiner, its 4 answers (in its seeded order), the judge
    const who = (x: (typeof exchanges)[number]) => /You are (Debater [A-D]|the Judge|the Cross-Examiner)/.exec(JSON.stringify(x.request.messages))?.[1];
    expect(exchanges.slice(0, 8).map(who)).toEqual([...LETTERS, ...LETTERS].map((l) => `Debater ${l}`));
    expect(exchanges.slice(0, 4).map((x) => x.stage)).toEqual(LETTERS.map((l) => `debater ${l} round 1`));
    expect(exchanges[8].stage).toBe('cross-examiner');
    expect(new Set(exchanges.slice(9, 13).map(who))).toEqual(new Set(LETTERS.map((l) => `Debater ${l}`)));
    expect(exchanges[13].stage).toBe('judge');
  }, 60_000);
});
