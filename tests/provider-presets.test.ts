/**
 * Issue 27, item 3: provider presets. Each preset (`llm.provider` / `--llm-provider`) is run against
 * a scripted server that enforces that server's request contract (tests/support/provider-contracts.ts:
 * OpenAI refuses a non-strict-clean schema sent with strict: true, vLLM refuses automatic tool
 * choice unless started with the flags docs/llm.md gives, llama.cpp refuses tools without --jinja,
 * Ollama ignores tool_choice): every system finishes an item with no request refused, and the
 * requests carry what the preset says (strict on structured outputs, strict tools for OpenAI).
 * The contracts are real: each refuses what its server refuses, and a preset's settings are what
 * keep a run inside the contract.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../core/config.js';
import { SERVER_PROVIDERS, PROVIDER_PRESETS } from '../core/llm/providers.js';
import { mixedIndexFixture, modelOn, runSystem, SENSIBLE, SYSTEMS } from './support/five-systems.js';
import { enforcing, refusalOf } from './support/provider-contracts.js';
import { schemaConstrained, startScriptedServer } from './support/scripted-openai-server.js';

const fx = mixedIndexFixture('presets', 1);

describe("each provider preset inside its server's request contract", () => {
  for (const provider of SERVER_PROVIDERS)
    it(`${provider}: every system finishes an item, no request refused; strict as the preset says`, async () => {
      const preset = PROVIDER_PRESETS[provider];
      for (const system of SYSTEMS) {
        const server = enforcing(provider, schemaConstrained(SENSIBLE[system]()), { autoToolChoice: true, jinja: true });
        const srv = await startScriptedServer(server);
        try {
          const r = await runSystem(system, {
            llm: modelOn(srv.url, { provider, mode: preset.structuredOutput }),
            runDir: join(fx.dir, `${provider}-${system}`),
            index: fx.index,
            n: 1,
          });
          expect(server.rejected, `${provider} ${system}`).toEqual([]);
          expect(
            r.results.filter((x) => x.error || x.stepFailures).map((x) => x.error ?? JSON.stringify(x.stepFailures)),
            `${provider} ${system}`,
          ).toEqual([]);
          const structured = srv.requests.filter((q) => q.body.response_format?.type === 'json_schema');
          expect(structured.length).toBeGreaterThan(0);
          for (const q of structured) expect(q.body.response_format.json_schema.strict === true).toBe(preset.strict);
          for (const q of srv.requests) for (const t of q.body.tools ?? []) expect(t.function.strict === true).toBe(preset.strictTools);
        } finally {
          await srv.close();
        }
      }
    }, 300_000);
});

describe('the contracts refuse what the servers refuse', () => {
  const loose = { type: 'object', properties: { answer: { type: 'string', minLength: 1 }, note: { type: 'string' } }, required: ['answer'] };
  const rf = (schema: object, strict?: boolean) => ({
    model: 'm',
    messages: [{ role: 'user', content: 'x' }],
    response_format: { type: 'json_schema', json_schema: { name: 'answer', ...(strict ? { strict } : {}), schema } },
  });

  it('openai: a schema outside the strict subset is refused with strict: true, and only advises without it', () => {
    expect(refusalOf('openai', rf(loose, true))?.error).toMatch(
      /^Invalid schema for response_format 'answer': \(root\): keyword "minLength" is not supported|additionalProperties must be false|not in required/,
    );
    expect(refusalOf('openai', rf(loose))).toBeUndefined();
    expect(refusalOf('openai', { model: 'm', messages: [], guided_json: {} })?.error).toMatch(/Unrecognized request argument supplied: guided_json/);
  });

  it('vllm without --enable-auto-tool-choice refuses the advocate loop: the CASE item fails with that reason, counted', async () => {
    const server = enforcing('vllm', schemaConstrained(SENSIBLE.case()));
    const srv = await startScriptedServer(server);
    try {
      const r = await runSystem('case', { llm: modelOn(srv.url, { provider: 'vllm' }), runDir: join(fx.dir, 'vllm-no-auto'), index: fx.index, n: 1 });
      expect(server.rejected[0]).toMatch(/--enable-auto-tool-choice/);
      expect(r.results).toHaveLength(1);
      expect(r.results[0].prediction).toBeNull();
      expect(r.results[0].error).toMatch(/HTTP 400.*enable-auto-tool-choice/);
    } finally {
      await srv.close();
    }
  }, 120_000);

  it('llamacpp without --jinja refuses tools; a schema the grammar cannot take is refused', () => {
    expect(refusalOf('llamacpp', { model: 'm', messages: [], tools: [{ type: 'function', function: { name: 'f', parameters: {} } }] })?.error).toBe(
      'tools param requires --jinja flag',
    );
    expect(refusalOf('llamacpp', rf({ type: 'object', properties: { a: { type: 'string', pattern: 'P[0-9]+' } } }))?.error).toMatch(/pattern must start/);
  });

  it("ollama ignores tool_choice: structured output by forced tool fails there (counted), the preset's json_schema works", async () => {
    for (const mode of ['tool', 'json_schema'] as const) {
      const server = enforcing('ollama', schemaConstrained(SENSIBLE.emar()));
      const srv = await startScriptedServer(server);
      try {
        const r = await runSystem('emar', {
          llm: modelOn(srv.url, { provider: 'ollama', mode }),
          runDir: join(fx.dir, `ollama-${mode}`),
          index: fx.index,
          n: 1,
        });
        if (mode === 'tool') expect(r.results[0].error).toMatch(/LLM_OUTPUT_INVALID/);
        else expect(r.results[0].error).toBeUndefined();
      } finally {
        await srv.close();
      }
    }
  }, 120_000);
});

describe('presets in the config', () => {
  it('a provider fills endpoint, structured output and timeout where config and env leave them unset; explicit settings win', async () => {
    const c = await loadConfig({ env: { LEXCASE_LLM_PROVIDER: 'ollama', LEXCASE_LLM_MODEL: 'qwen2.5:7b-instruct' }, cwd: fx.dir });
    expect(c.llm).toMatchObject({ provider: 'ollama', baseUrl: 'http://localhost:11434/v1', structuredOutput: 'json_schema', timeoutMs: 600_000 });
    const d = await loadConfig({
      env: { LEXCASE_LLM_PROVIDER: 'vllm', LEXCASE_LLM_BASE_URL: 'http://gpu:9000/v1', LEXCASE_LLM_TIMEOUT_MS: '5000' },
      cwd: fx.dir,
    });
    expect(d.llm).toMatchObject({ baseUrl: 'http://gpu:9000/v1', timeoutMs: 5000 });
    const o = await loadConfig({ env: { LEXCASE_LLM_BASE_URL: 'https://api.openai.com/v1' }, cwd: fx.dir });
    expect(o.llm.provider).toBeUndefined(); // inferred where it is used: strict requests for api.openai.com
    await expect(loadConfig({ env: { LEXCASE_LLM_PROVIDER: 'olama' }, cwd: fx.dir })).rejects.toThrow(/LEXCASE_LLM_PROVIDER/);
  });
});
