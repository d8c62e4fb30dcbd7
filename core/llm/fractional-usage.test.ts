/**
 * A server that reports a fraction of a token (prompt_tokens 12.5): no tokenizer counts half a
 * token, so the figure is no count. It is dropped as a count that is text is (reply-usage.ts) — the
 * reply counts as without usage (`unreported`), never 12.5 tokens in the meter — and one warning
 * on stderr names the field and value. The warning is once per process: the test loads the client
 * afresh (vi.resetModules) so a file run before it in the same worker cannot have spent it.
 */
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { completionWithUsage as completion, startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema } from '../config.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  vi.restoreAllMocks();
  vi.resetModules(); // and a file after this one in the worker gets a graph whose warning is unspent
});

describe('fractional token counts from a server', () => {
  it('are refused as counts: the reply counts as unreported, not 12.5 tokens, with one warning naming the value', async () => {
    srv = await startScriptedServer([
      { raw: completion(1, { prompt_tokens: 12.5, completion_tokens: '3.5' }) },
      { raw: completion(2, { prompt_tokens: 40, completion_tokens: 7 }) },
    ]);
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    // the warning is once per process, and the fast tier shares a worker's modules between files
    // (isolate: false): a fresh module graph, so another file's warning cannot have used it up
    vi.resetModules();
    const { createChatModel } = await import('./factory.js');
    const { UsageMeter } = await import('./usage.js');
    const usage = new UsageMeter();
    const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', apiKey: 'k', maxRetries: 0, cacheDir: false }), { usage });
    const replies: AIMessage[] = [];
    for (const q of ['1', '2']) replies.push((await model.invoke([new HumanMessage(q)])) as AIMessage);
    // before: input 52.5, output 10.5, total 63 — fractions summed into the meter as tokens spent
    expect(usage.snapshot()).toMatchObject({ input: 40, output: 7, total: 47, calls: 2, unreported: 1 });
    const warned = stderr.filter((l) => l.includes('token usage that is not a whole number'));
    expect(warned).toEqual([
      '[warn] the LLM endpoint reported token usage that is not a whole number (prompt_tokens: 12.5, completion_tokens: "3.5"): strings of digits are read as numbers, other values (a fraction, text) as no usage\n',
    ]);
  });
});
