/**
 * Issue 36, item 8: numbers a local server does not bound, and `strict` as the preset says — run as
 * a user runs it (the built CLI as a child process against a 127.0.0.1 server).
 *
 *  - llama.cpp and Ollama drop `minimum`/`maximum` from the grammar silently. The contract-fuzzing
 *    server with `ignoreBounds` answers every schema with a schema-valid value except for those
 *    bounds: `lexcase run acal` must lose no item to an out-of-range argument score (before: every
 *    item failed with LLM_OUTPUT_INVALID "argument strength scores"), and each clamp must be counted
 *    in results.jsonl (`repairs`), in report.md ("values repaired: N (…)"), on the exchange
 *    (`repaired`) and in a warning on stderr.
 *  - `strict: true` goes where the preset says and nowhere else: `lexcase run mad --llm-provider P`
 *    with debaters that request a snippet (so the brief is a json_schema request that still carries
 *    the snippet tools): the tools are strict only under a preset with strict tools (openai), the
 *    response format only under a strict preset (openai, vllm). Before, LangChain marked those
 *    tools strict under every preset.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVER_PROVIDERS, PROVIDER_PRESETS } from '../core/llm/providers.js';
import { readResults } from '../eval/run-dir.js';
import { contractFuzz } from './support/contract-fuzz-server.js';
import { mixedIndexFixture } from './support/five-systems.js';
import { startScriptedServer } from './support/scripted-openai-server.js';
import { ensureBuilt, isolatedEnv, lexcase } from './support/spawn-cli.js';

const fx = mixedIndexFixture('unbounded', 3);
beforeAll(() => ensureBuilt(), 600_000);

const llmEnv = (url: string) => isolatedEnv({ LEXCASE_LLM_BASE_URL: url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });

describe('a server that ignores minimum/maximum (llama.cpp, Ollama)', () => {
  it('lexcase run acal: no item lost to an out-of-range score; every clamp counted in results.jsonl, report.md, the exchanges and on stderr', async () => {
    const fuzz = contractFuzz({ seed: 36, ignoreBounds: true });
    const srv = await startScriptedServer(fuzz);
    const runDir = join(fx.dir, 'acal-unbounded');
    try {
      const r = await lexcase(
        ['run', 'acal', '--task', 'hearsay', '--index', fx.index.dir, '--limit', '3', '--llm-provider', 'llamacpp', '--run-dir', runDir],
        { cwd: fx.dir, env: llmEnv(srv.url), timeoutMs: 300_000 },
      );
      expect(r.code, r.stderr.slice(-2000)).toBe(0);
      expect(fuzz.stats.unbounded).toBeGreaterThan(0);
      const { records } = await readResults(runDir);
      expect(records).toHaveLength(3);
      expect(records.filter((x) => x.error).map((x) => `${x.id}: ${x.error}`)).toEqual([]);
      const byField = new Map<string, number>();
      for (const x of records) for (const [f, n] of Object.entries(x.repairs ?? {})) byField.set(f, (byField.get(f) ?? 0) + n);
      const repaired = [...byField.values()].reduce((a, b) => a + b, 0);
      expect(byField.get('argument strength scores: score')).toBeGreaterThan(0);
      // every clamp is on its exchange, and no reply was re-asked for a number out of bounds
      const lines = readdirSync(join(runDir, 'llm'))
        .filter((f) => f.endsWith('.jsonl'))
        .flatMap((f) =>
          readFileSync(join(runDir, 'llm', f), 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { stage?: string; repaired?: string[]; invalid?: string }),
        );
      expect(lines.reduce((a, x) => a + (x.repaired?.length ?? 0), 0)).toBe(repaired);
      expect(lines.filter((x) => x.invalid && /expected number to be [<>]=/.test(x.invalid)).map((x) => `${x.stage}: ${x.invalid}`)).toEqual([]);
      const figure = `values repaired: ${repaired} (${[...byField]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([f, n]) => `${f}: ${n}`)
        .join(', ')})`;
      expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toContain(figure);
      expect(r.stderr).toContain(figure);
    } finally {
      await srv.close();
    }
  }, 300_000);
});

describe("strict: true where the preset says, MAD's snippet tools included", () => {
  for (const provider of SERVER_PROVIDERS)
    it(`lexcase run mad --llm-provider ${provider}: response format strict ${PROVIDER_PRESETS[provider].strict ? 'yes' : 'no'}, tools strict ${PROVIDER_PRESETS[provider].strictTools ? 'yes' : 'no'}`, async () => {
      const preset = PROVIDER_PRESETS[provider];
      // every free tool choice is a snippet request, so each rebuttal's brief carries the tools
      const srv = await startScriptedServer(contractFuzz({ seed: 37, toolRate: 1 }));
      try {
        const r = await lexcase(
          ['run', 'mad', '--index', fx.index.dir, '--limit', '1', '--rounds', '2', '--llm-provider', provider, '--run-dir', join(fx.dir, `mad-${provider}`)],
          { cwd: fx.dir, env: llmEnv(srv.url), timeoutMs: 300_000 },
        );
        expect(r.code, r.stderr.slice(-2000)).toBe(0);
        const reqs = srv.requests.filter((q) => q.path.endsWith('/chat/completions'));
        const briefsWithTools = reqs.filter((q) => q.body.response_format?.type === 'json_schema' && q.body.tools?.length);
        expect(briefsWithTools.length).toBeGreaterThan(0);
        const structured = reqs.filter((q) => q.body.response_format?.type === 'json_schema');
        expect(structured.map((q) => q.body.response_format.json_schema.strict === true)).toEqual(structured.map(() => preset.strict));
        const tools = reqs.flatMap((q) =>
          (q.body.tools ?? []).map((t: { function: { name: string; strict?: boolean } }) => `${t.function.name} strict=${t.function.strict === true}`),
        );
        expect(tools.length).toBeGreaterThan(0);
        expect([...new Set(tools)].sort()).toEqual([...new Set(tools.map((t: string) => t.replace(/strict=\w+$/, `strict=${preset.strictTools}`)))].sort());
      } finally {
        await srv.close();
      }
    }, 300_000);
});
