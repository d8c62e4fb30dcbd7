import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { llmStats } from '../../core/llm/factory.js';
import { addLlmOptions, resolveLlm } from './llm-options.js';

const parse = (args: string[]) => {
  const cmd = addLlmOptions(new Command('x').exitOverride());
  cmd.parse(args, { from: 'user' });
  return cmd.opts();
};

describe('resolveLlm', () => {
  it('returns no model with --offline, even when nothing is configured', async () => {
    const r = await resolveLlm(parse(['--offline']), { env: {}, cwd: '/' });
    expect(r.model).toBeUndefined();
    expect(r.offline).toBe(true);
  });

  it('stops with LLM_NOT_CONFIGURED (saying how to configure) without --offline and without an endpoint', async () => {
    await expect(resolveLlm(parse([]), { env: {}, cwd: '/' })).rejects.toMatchObject({
      code: 'LLM_NOT_CONFIGURED',
      message: expect.stringMatching(/LEXCASE_LLM_BASE_URL.*--offline/s),
    });
  });

  it('builds a factory model from env; --no-cache turns the cache off', async () => {
    const env = { LEXCASE_LLM_BASE_URL: 'http://127.0.0.1:9/v1', LEXCASE_LLM_MODEL: 'm' };
    const r = await resolveLlm(parse(['--no-cache']), { env, cwd: '/' });
    expect(r.model).toBeDefined();
    expect(llmStats(r.model)).toMatchObject({ requests: 0 });
    expect(r.config.llm.cacheDir).toBe(false);
  });

  it('--llm-provider sets the server\'s endpoint, structured output and timeout where config and env leave them unset; a wrong name is refused', async () => {
    const r = await resolveLlm(parse(['--llm-provider', 'vllm']), { env: { LEXCASE_LLM_MODEL: 'm' }, cwd: '/' });
    expect(r.config.llm).toMatchObject({ provider: 'vllm', baseUrl: 'http://localhost:8000/v1', structuredOutput: 'json_schema', timeoutMs: 300_000 });
    const e = await resolveLlm(parse(['--llm-provider', 'ollama']), { env: { LEXCASE_LLM_MODEL: 'm', LEXCASE_LLM_BASE_URL: 'http://gpu:1/v1', LEXCASE_LLM_PROVIDER: 'vllm' }, cwd: '/' });
    expect(e.config.llm).toMatchObject({ provider: 'ollama', baseUrl: 'http://gpu:1/v1', timeoutMs: 600_000 });
    expect(() => parse(['--llm-provider', 'olama'])).toThrow(/Allowed choices are openai, vllm, ollama, llamacpp, generic/);
  });

  it('--replay needs a recorded run dir and excludes --offline', async () => {
    await expect(resolveLlm(parse(['--replay', '/nonexistent-run']), { env: {}, cwd: '/' })).rejects.toMatchObject({ code: 'RUN_INVALID', message: expect.stringMatching(/holds no LLM recording/) });
    await expect(resolveLlm(parse(['--replay', '/x', '--offline']), { env: {}, cwd: '/' })).rejects.toMatchObject({ code: 'USAGE' });
  });
});
