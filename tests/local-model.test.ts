/**
 * Issue 42: the five systems on a real model in this process — the `local` provider (llama.cpp
 * through node-llama-cpp) on a tiny random-weight GGUF model written at test time
 * (tests/support/tiny-gguf.ts; no weights committed or downloaded).
 *
 *  - Each system runs an item end to end through its experiment function: a result line, no failed
 *    structured step and no repair request (the grammar makes every constrained answer schema-valid
 *    whatever the weights).
 *  - The built CLI, as a user runs it: `lexcase run case --model-file tiny.gguf` and the same run
 *    configured by lexcase.config.json (llm.modelFile, relative to the working directory) instead
 *    of the flag, both without the response cache: both exit 0, record the model's identity
 *    (sha256, GGUF metadata, runtime, seed) in config.json, and write the same results.jsonl but
 *    for each item's wall time (`ms`); a `--replay` of the first, with no model file, gives
 *    byte-identical results.jsonl.
 *  - `lexcase reproduce <recipe> --model-file tiny.gguf` runs the recipe's runs on the local model
 *    (before, the flag was accepted and dropped: LLM_NOT_CONFIGURED).
 * Where node-llama-cpp is not installed or has no binary for this machine, these tests skip and
 * their names say why.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from './support/run-built-cli.js';
import { runCli } from './support/run-cli.js';
import { localModelOn, localModelUnavailable } from './support/local-model.js';
import { mixedIndexFixture, runSystem, SYSTEMS } from './support/five-systems.js';
import { writeTinyGguf } from './support/tiny-gguf.js';
import { observeSentSchemas } from '../core/llm/structured.js';

const unavailable = await localModelUnavailable();
const needs = unavailable ? ` (skipped: ${unavailable})` : '';
if (unavailable) console.warn(`local model tests skipped: ${unavailable}`);

const fx = mixedIndexFixture('local', 1);
const tiny = () => writeTinyGguf(join(fx.dir, 'tiny.gguf'));

describe.skipIf(!!unavailable)(`the five systems on a tiny GGUF model run in-process${needs}`, () => {
  for (const system of SYSTEMS)
    it(`${system}: an item ends as a result line; no failed structured step, no repair`, async () => {
      let structured = 0;
      const stop = observeSentSchemas(() => structured++);
      try {
        const r = await runSystem(system, {
          llm: localModelOn(tiny(), { extra: { maxTokens: 400 } }),
          runDir: join(fx.dir, `run-${system}`),
          index: fx.index,
          n: 1,
        });
        expect(r.results.length).toBeGreaterThanOrEqual(1);
        for (const rec of r.results) {
          expect(rec.stepFailures, `${rec.id}: ${JSON.stringify(rec.stepFailures)}`).toBeUndefined();
          expect(rec.error ?? '', rec.id).not.toMatch(/LLM_OUTPUT_INVALID|could not be parsed/);
          expect(rec.tokens?.calls ?? 0, rec.id).toBeGreaterThan(0);
        }
        expect(structured).toBeGreaterThan(0);
      } finally {
        stop();
      }
    }, 300_000);
});

describe.skipIf(!!unavailable)(`lexcase run case on a local model, as a user runs it${needs}`, () => {
  it('--model-file and lexcase.config.json llm.modelFile: exit 0, the model identity in config.json, the same results.jsonl but for wall times; --replay byte-identical with no model file', async () => {
    const file = tiny();
    const sha = createHash('sha256').update(readFileSync(file)).digest('hex');
    const env = { XDG_CACHE_HOME: join(fx.dir, 'cache'), NO_COLOR: '1' };
    const args = (runDir: string) => [
      '--json',
      'run',
      'case',
      '--index',
      fx.index.dir,
      '--limit',
      '1',
      '--jurors',
      '3',
      '--max-steps',
      '3',
      '--k',
      '3',
      '--no-cache',
      '--run-dir',
      runDir,
    ];
    const a = await runBuiltCli([...args(join(fx.dir, 'cli-a')), '--model-file', 'tiny.gguf'], { cwd: fx.dir, env, timeoutMs: 240_000 });
    expect(a.code, a.stderr.slice(-2000)).toBe(0);
    // a replay of the local run needs no model file and gives byte-identical results.jsonl
    const rep = await runBuiltCli([...args(join(fx.dir, 'cli-a-replay')), '--replay', join(fx.dir, 'cli-a')], { cwd: fx.dir, env, timeoutMs: 240_000 });
    expect(rep.code, rep.stderr.slice(-2000)).toBe(0);
    expect(readFileSync(join(fx.dir, 'cli-a-replay', 'results.jsonl')).equals(readFileSync(join(fx.dir, 'cli-a', 'results.jsonl')))).toBe(true);
    writeFileSync(join(fx.dir, 'lexcase.config.json'), JSON.stringify({ llm: { provider: 'local', modelFile: './tiny.gguf' } }));
    const b = await runBuiltCli(args(join(fx.dir, 'cli-b')), { cwd: fx.dir, env, timeoutMs: 240_000 });
    expect(b.code, b.stderr.slice(-2000)).toBe(0);
    for (const dir of ['cli-a', 'cli-b']) {
      const cfg = JSON.parse(readFileSync(join(fx.dir, dir, 'config.json'), 'utf8')).config.model;
      expect(cfg).toMatchObject({ provider: 'local', modelFile: file, model: `tiny.gguf@sha256:${sha.slice(0, 16)}`, seed: 0 });
      expect(cfg.local).toMatchObject({
        sha256: sha,
        gguf: { architecture: 'llama', quantization: 'ALL_F32', chatWrapper: 'ChatML' },
        runtime: { gpu: false, batchSize: 512 },
        sampling: { seed: 0 },
      });
    }
    const lines = (dir: string) =>
      readFileSync(join(fx.dir, dir, 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const ra = lines('cli-a');
    expect(ra).toHaveLength(1);
    expect(ra[0].tokens).toMatchObject({ cached: 0 });
    expect((ra[0].tokens as { calls: number }).calls).toBeGreaterThan(3);
    const withoutMs = (r: Record<string, unknown>) => JSON.stringify({ ...r, ms: undefined });
    expect(lines('cli-b').map(withoutMs)).toEqual(ra.map(withoutMs));
  }, 600_000);
});

describe.skipIf(!!unavailable)(`lexcase reproduce on a local model${needs}`, () => {
  it('reproduce threeply-table2 --only single --model-file: the run is done on the local model; the flag stays scoped to the grid', async () => {
    const out = join(fx.dir, 'repro');
    const r = await runCli([
      '--json',
      'reproduce',
      'threeply-table2',
      '--only',
      'single',
      '--limit',
      '1',
      '--model-file',
      tiny(),
      '--no-cache',
      '--run-dir',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const t = JSON.parse(readFileSync(join(out, 'table.json'), 'utf8'));
    expect(
      t.runs.find((s: { id: string }) => s.id === 'single'),
      JSON.stringify(t.runs),
    ).toMatchObject({ status: 'done' });
    const cfg = JSON.parse(readFileSync(join(out, 'runs', 'single', 'config.json'), 'utf8')).config;
    expect(JSON.stringify(cfg)).toContain('tiny.gguf@sha256:');
    expect(process.env.LEXCASE_LLM_MODEL_FILE).toBeUndefined();
  }, 300_000);
});
