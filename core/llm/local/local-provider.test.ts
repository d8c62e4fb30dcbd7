/**
 * The `local` provider (issue 42) driving real llama.cpp inference, in this process, on a tiny
 * random-weight GGUF model written at test time (tests/support/tiny-gguf.ts; nothing downloaded):
 * the answers are schema-valid whatever the weights (the grammar), tool calls name a given tool
 * with valid arguments, tokens are metered, the same request gives the same bytes, and the errors
 * a user meets (no model file, a file that is no GGUF, the optional package absent) say what to do.
 * Where node-llama-cpp is not installed or has no binary for this machine, the inference tests
 * skip and their names say why; the error tests run everywhere.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage, SystemMessage, type AIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { addLlmOptions, resolveLlm } from '../../../src/cli/llm-options.js';
import { localModelOn, localModelUnavailable } from '../../../tests/support/local-model.js';
import { writeTinyGguf } from '../../../tests/support/tiny-gguf.js';
import { captureStderr } from '../../../tests/support/capture-stderr.js';
import { llmConfigSchema } from '../../config.js';
import { createChatModel, llmStats } from '../factory.js';
import { CUT_SHORT, invokeStructured } from '../structured.js';
import { UsageMeter } from '../usage.js';
import { prepareLocalModel } from './prepare.js';
import { loadNodeLlamaCpp } from './runtime.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-local-'));
const file = writeTinyGguf(join(dir, 'tiny.gguf'));
// the model hash cache goes to $XDG_CACHE_HOME: keep it in the test's folder
const xdg = process.env.XDG_CACHE_HOME;
process.env.XDG_CACHE_HOME = join(dir, 'cache');
afterAll(() => {
  if (xdg === undefined) delete process.env.XDG_CACHE_HOME;
  else process.env.XDG_CACHE_HOME = xdg;
  rmSync(dir, { recursive: true, force: true });
});

const unavailable = await localModelUnavailable();
const needs = unavailable ? ` (skipped: ${unavailable})` : '';
if (unavailable) console.warn(`local provider tests skipped: ${unavailable}`);

const Verdict = z.object({ reasoning: z.string().max(200), vote: z.enum(['A', 'B', 'C', 'D']), confidence: z.number().int().min(1).max(5) });
const ask = [new SystemMessage('You are a juror. Reply in JSON.'), new HumanMessage('Which answer is right: A, B, C or D?')];

const search = tool(async ({ query }: { query: string }) => JSON.stringify({ results: [{ id: `p-${query.length}` }] }), {
  name: 'bm25_search',
  description: 'BM25 search over the passages',
  schema: z.object({ query: z.string().max(60), k: z.number().int().min(1).max(10) }),
});
const rewrite = tool(async ({ query }: { query: string }) => query, {
  name: 'rewrite_query',
  description: 'Rewrite a query',
  schema: z.object({ query: z.string().max(60) }),
});

describe.skipIf(!!unavailable)(`the local provider on a tiny GGUF model${needs}`, () => {
  it('a structured answer parses with its zod schema (enum member, bounded integer) on the first try; tokens are metered; a second request gives the same bytes', async () => {
    const usage = new UsageMeter();
    const model = localModelOn(file, { usage, extra: { temperature: 0.7, maxTokens: 80 } });
    const a = await invokeStructured(model, ask, Verdict, { what: 'juror vote' });
    expect(a.attempts).toBe(1);
    expect(['A', 'B', 'C', 'D']).toContain(a.value.vote);
    expect(a.value.confidence).toBeGreaterThanOrEqual(1);
    expect(a.value.confidence).toBeLessThanOrEqual(5);
    const t = usage.snapshot();
    expect(t.calls).toBe(1);
    expect(t.input).toBeGreaterThan(10);
    expect(t.output).toBeGreaterThan(3);
    // no cache: the second answer is generated again, from the same seed (temperature 0.7)
    const b = await invokeStructured(model, ask, Verdict, { what: 'juror vote' });
    expect(usage.snapshot().calls).toBe(2);
    expect(b.raw).toEqual(a.raw);
  }, 120_000);

  it('a forced tool call names that tool with arguments its schema accepts; a free choice calls a given tool or answers', async () => {
    const model = localModelOn(file, { extra: { temperature: 0, maxTokens: 60 } });
    const forced = (await model.bindTools!([search, rewrite], { tool_choice: 'bm25_search' }).invoke(ask)) as AIMessage;
    expect(forced.tool_calls).toHaveLength(1);
    expect(forced.tool_calls![0].name).toBe('bm25_search');
    expect(search.schema.safeParse(forced.tool_calls![0].args).success, JSON.stringify(forced.tool_calls![0].args)).toBe(true);
    const free = (await model.bindTools!([search, rewrite]).invoke(ask)) as AIMessage;
    if (free.tool_calls?.length) for (const c of free.tool_calls) expect(['bm25_search', 'rewrite_query']).toContain(c.name);
    else expect(typeof free.content).toBe('string');
  }, 120_000);

  it('a forced tool call (structuredOutput "tool") cut at llm.maxTokens is counted as cut short and its error says so, as a json_schema reply cut there is', async () => {
    for (const structuredOutput of ['tool', 'json_schema']) {
      const usage = new UsageMeter();
      const model = localModelOn(file, { usage, extra: { temperature: 0, maxTokens: 8, structuredOutput } });
      const e = await invokeStructured(model, ask, Verdict, { what: 'juror vote' }).catch((x: unknown) => x as Error);
      expect(e, structuredOutput).toBeInstanceOf(Error);
      expect((e as Error).message, structuredOutput).toContain(CUT_SHORT);
      expect(usage.snapshot(), structuredOutput).toMatchObject({ calls: 2, cutShort: 2 });
    }
  }, 120_000);

  it('the response cache keys a reply by the runtime settings: one cached with a 512-token context is not served to a 1,024-token one, but is to the same settings', async () => {
    const cacheDir = join(dir, 'llm-cache');
    const at = (contextSize: number) => localModelOn(file, { extra: { temperature: 0, maxTokens: 20, contextSize, cacheDir } });
    const first = at(512);
    const a = await first.invoke(ask);
    expect(llmStats(first)).toMatchObject({ requests: 1, cacheHits: 0 });
    const other = at(1024);
    const b = await other.invoke(ask);
    // answered by the model run with the other context, not by the first one's cached reply
    expect(llmStats(other)).toMatchObject({ requests: 1, cacheHits: 0 });
    expect(b.response_metadata?.cached).not.toBe(true);
    const same = at(512);
    const c = await same.invoke(ask);
    expect(llmStats(same)).toMatchObject({ requests: 0, cacheHits: 1 });
    expect(c.content).toEqual(a.content);
  }, 120_000);

  it("the run config's identity: the file's sha256 and size, its GGUF metadata and chat template, the runtime and the seed", async () => {
    const { llm, info } = await prepareLocalModel(llmConfigSchema.parse({ provider: 'local', modelFile: file, threads: 1, seed: 7 }));
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
    expect(llm.model).toBe(`tiny.gguf@sha256:${sha.slice(0, 16)}`);
    expect(info).toMatchObject({
      sha256: sha,
      bytes: readFileSync(file).length,
      gguf: { architecture: 'llama', name: 'lexcase-tiny-random', quantization: 'ALL_F32', contextLength: 32768, chatWrapper: 'ChatML' },
      runtime: { gpu: false, threads: 1, batchSize: 512, contextSize: 8192 },
      sampling: { seed: 7 },
    });
    expect(info.gguf).toHaveProperty('chatTemplateSha256', expect.stringMatching(/^[0-9a-f]{64}$/));
  }, 60_000);

  it('a file that is not a GGUF model: LLM_UNAVAILABLE naming the file and the format', async () => {
    const bad = join(dir, 'notes.gguf');
    writeFileSync(bad, 'not a model\n');
    const e = await prepareLocalModel(llmConfigSchema.parse({ provider: 'local', modelFile: bad })).catch((x) => x);
    expect(e).toMatchObject({ code: 'LLM_UNAVAILABLE', message: expect.stringContaining(`${bad} cannot be loaded`) });
    expect(e.details.hint).toMatch(/GGUF/);
  }, 60_000);
});

describe('the local provider: what a user sees when it cannot run', () => {
  const parse = (args: string[]) => addLlmOptions(new Command('x').exitOverride()).parse(args, { from: 'user' }).opts();

  it('--llm-provider local without a model file: LLM_NOT_CONFIGURED saying to pass --model-file', async () => {
    await expect(resolveLlm(parse(['--llm-provider', 'local']), { env: {}, cwd: dir })).rejects.toMatchObject({
      code: 'LLM_NOT_CONFIGURED',
      message: expect.stringContaining('needs a GGUF model file'),
      details: { field: 'modelFile', hint: expect.stringContaining('--model-file') },
    });
  });

  it('--model-file naming no file: LLM_UNAVAILABLE naming the path, before any package is loaded', async () => {
    const missing = join(dir, 'absent', 'model.gguf');
    await expect(resolveLlm(parse(['--model-file', missing]), { env: {}, cwd: dir })).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
      message: expect.stringContaining(`the model file ${missing} cannot be read`),
    });
    expect(() => createChatModel(llmConfigSchema.parse({ provider: 'local', modelFile: missing }))).toThrow(/cannot be read/);
  });

  it('--model-file with a server provider: a usage error', async () => {
    await expect(resolveLlm(parse(['--model-file', file, '--llm-provider', 'ollama']), { env: {}, cwd: dir })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining('--llm-provider local'),
    });
  });

  it('node-llama-cpp not installed: LLM_UNAVAILABLE naming the package and how to install it', async () => {
    const e = await loadNodeLlamaCpp(() => Promise.reject(new Error("Cannot find package 'node-llama-cpp' imported from /x"))).catch((x) => x);
    expect(e).toMatchObject({ code: 'LLM_UNAVAILABLE', message: expect.stringContaining('optional package node-llama-cpp') });
    expect(e.details.hint).toMatch(/npm install node-llama-cpp/);
  });
});

/*
 * A library caller that gives a local model (`provider: 'local'`, a model file) a server's
 * `baseUrl` or `model` too: the file runs and is named by its file and hash, and one `[warn]` line
 * says that the endpoint and model name given are not used. Before, createChatModel replaced both
 * without a word (the CLI said it; the library did not). Creating the model hashes the file and
 * loads nothing, so this runs where node-llama-cpp has no binary too.
 */
describe('createChatModel with a model file and a server', () => {
  afterEach(() => vi.restoreAllMocks());
  it('names the endpoint and model name it does not use, once; the model is the file', () => {
    const stderr = captureStderr();
    const cfg = llmConfigSchema.parse({ provider: 'local', modelFile: file, model: 'gpt-4o', baseUrl: 'http://user:secret@127.0.0.1:9/v1' });
    const a = createChatModel(cfg) as unknown as { model: string };
    createChatModel(cfg);
    expect(a.model).toMatch(/^tiny\.gguf@sha256:[0-9a-f]{16}$/);
    const said = stderr.filter((l) => l.includes('not used:'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(
      `not used: baseUrl http://***:***@127.0.0.1:9/v1, model "gpt-4o" — provider "local" runs the model in this process from ${file}, named ${a.model}`,
    );
    expect(said[0]).not.toContain('secret');
  });

  it('says nothing when only the file is given', () => {
    const stderr = captureStderr();
    createChatModel(llmConfigSchema.parse({ provider: 'local', modelFile: file }));
    expect(stderr.filter((l) => l.includes('not used:'))).toEqual([]);
  });
});
