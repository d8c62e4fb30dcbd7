import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { completionWithUsage as completion, startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { tokensOf } from '../../agents/case/tool-trace.js';
import { llmConfigSchema } from '../config.js';
import { createChatModel } from './factory.js';
import { ExchangeLog, withExchangeLog, type Exchange } from './record-replay.js';
import { spentTokens } from './spent-tokens.js';
import { UsageMeter } from './usage.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  vi.restoreAllMocks();
});

/** `n` questions to a factory model on `server`, with the run's meter and what was written to stderr. */
async function askEach(server: ScriptedServer, n: number): Promise<{ replies: AIMessage[]; usage: UsageMeter; stderr: string[] }> {
  const stderr: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
  const usage = new UsageMeter();
  const model = createChatModel(llmConfigSchema.parse({ baseUrl: server.url, model: 'm', apiKey: 'k', maxRetries: 0, cacheDir: false }), { usage });
  const replies: AIMessage[] = [];
  for (let q = 1; q <= n; q++) replies.push((await model.invoke([new HumanMessage(String(q))])) as AIMessage);
  return { replies, usage, stderr };
}

describe('token usage of a completion is read as numbers', () => {
  it('string counts and a missing total_tokens give the same per-step tokens, run meter and budget count as proper numbers; one warning', async () => {
    srv = await startScriptedServer([
      { raw: completion(1, { prompt_tokens: '449', completion_tokens: '10', total_tokens: '459' }) },
      { raw: completion(2, { prompt_tokens: 449, completion_tokens: 10 }) },
      { raw: completion(3, { prompt_tokens: '449', completion_tokens: 'n/a' }) },
    ]);
    const { replies, usage, stderr } = await askEach(srv, 3);
    // before: total_tokens "0459" (a string: 0 + "459"), then 0 for the reply without total_tokens
    expect(replies.map((r) => r.usage_metadata?.total_tokens)).toEqual([459, 459, 449]);
    expect(replies.map((r) => spentTokens(r))).toEqual([459, 459, 449]);
    expect(tokensOf(replies)).toBe(1367);
    expect(usage.snapshot()).toMatchObject({ input: 1347, output: 20, total: 1367, calls: 3 });
    const warned = stderr.filter((l) => /token usage that is not a whole number/.test(l));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('prompt_tokens: "449"');
  });
});

describe('a total_tokens below prompt + completion (helper audit)', () => {
  it('is raised to their sum, so the per-step tally and budget count what the run meter counts; one warning', async () => {
    srv = await startScriptedServer([
      { raw: completion(1, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 50 }) },
      { raw: completion(2, { prompt_tokens: 100, completion_tokens: 10, total_tokens: 50 }) },
    ]);
    const { replies, usage, stderr } = await askEach(srv, 2);
    // before: 50 a step (the budget and CASE's stage rows) against 110 in the run's meter
    expect(replies.map((r) => spentTokens(r))).toEqual([110, 110]);
    expect(tokensOf(replies)).toBe(220);
    expect(usage.snapshot()).toMatchObject({ input: 200, output: 20, total: 220 });
    const warned = stderr.filter((l) => /total_tokens 50 below its prompt_tokens \+ completion_tokens \(100 \+ 10\): counted as 110/.test(l));
    expect(warned).toHaveLength(1);
  });
});

describe('usage under the Responses API names (input_tokens, output_tokens) in a chat completion (helper audit)', () => {
  it('is read as prompt and completion tokens, with one line saying so (before: counted as total-only, "no split")', async () => {
    srv = await startScriptedServer([
      { raw: completion(1, { input_tokens: 100, output_tokens: 10, total_tokens: 110 }) },
      { raw: completion(2, { input_tokens: 200, output_tokens: 20 }) },
    ]);
    const { replies, usage, stderr } = await askEach(srv, 2);
    expect(replies.map((r) => r.usage_metadata)).toMatchObject([
      { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
      { input_tokens: 200, output_tokens: 20, total_tokens: 220 },
    ]);
    expect(usage.snapshot()).toMatchObject({ input: 300, output: 30, total: 330, calls: 2 });
    expect(usage.snapshot().totalOnly ?? 0).toBe(0);
    const said = stderr.filter((l) => /token usage under other names: read input_tokens as prompt_tokens and output_tokens as completion_tokens/.test(l));
    expect(said).toHaveLength(1);
  });
});

/** The counts a reply stored by a lexcase before reply-usage.ts kept for a server sending strings: LangChain's 0 + "449". */
const OLD_STRING_COUNTS = { input_tokens: '0449', output_tokens: '010', total_tokens: '0459' };

describe('token usage of a reply read back from a recording or the response cache is read as numbers', () => {
  it('a recording and a cache entry written before counts were read as numbers give 459 tokens in the meter, the per-step tally and the budget, not "0459"', async () => {
    srv = await startScriptedServer([{ raw: completion(1, { prompt_tokens: 449, completion_tokens: 10, total_tokens: 459 }) }]);
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-stored-usage-'));
    try {
      const cfg = (baseUrl: string) => llmConfigSchema.parse({ baseUrl, model: 'm', apiKey: 'k', maxRetries: 0, cacheDir: join(dir, 'cache') });
      const q = () => [new HumanMessage('Is the statement hearsay?')];
      const recording = new ExchangeLog('q1');
      await withExchangeLog(recording, () => createChatModel(cfg(srv!.url), {}).invoke(q()));
      // what the recording and the cache entry held when a lexcase before reply-usage.ts met a server sending string counts
      const x = structuredClone(recording.recorded[0]) as Exchange;
      x.reply!.llmOutput = { ...x.reply!.llmOutput, tokenUsage: { promptTokens: '0449', completionTokens: '010', totalTokens: '0459' } };
      x.reply!.generations[0].message!.usage_metadata = OLD_STRING_COUNTS;
      const [entryFile] = readdirSync(join(dir, 'cache'));
      const entry = JSON.parse(readFileSync(join(dir, 'cache', entryFile), 'utf8'));
      entry.generations[0].message.usage_metadata = OLD_STRING_COUNTS;
      writeFileSync(join(dir, 'cache', entryFile), JSON.stringify(entry));

      const replayMeter = new UsageMeter();
      const replay = createChatModel(cfg('http://127.0.0.1:9/v1'), { usage: replayMeter, replayFrom: dir });
      const replayed = (await withExchangeLog(new ExchangeLog('q1', { dir, exchanges: [x] }), () => replay.invoke(q()))) as AIMessage;
      expect(replayMeter.snapshot()).toMatchObject({ input: 449, output: 10, total: 459, calls: 1 });
      expect(spentTokens(replayed)).toBe(459);
      expect(tokensOf([replayed])).toBe(459);

      const cacheMeter = new UsageMeter();
      const cached = (await createChatModel(cfg(srv.url), { usage: cacheMeter }).invoke(q())) as AIMessage;
      expect(cacheMeter.snapshot()).toMatchObject({ input: 0, output: 0, calls: 1, cached: 1 });
      // a cached reply spent nothing, but the advocate's budget counts the conversation's size
      expect(spentTokens(cached)).toBe(0);
      expect(tokensOf([cached])).toBe(459);
      expect(cached.usage_metadata).toMatchObject({ input_tokens: 449, output_tokens: 10, total_tokens: 459 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
