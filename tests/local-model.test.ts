/**
 * Issue 42: `lexcase reproduce <recipe> --model-file tiny.gguf` runs the recipe's runs on the
 * `local` provider (llama.cpp through node-llama-cpp) on a tiny random-weight GGUF model written at
 * test time (tests/support/tiny-gguf.ts; no weights committed or downloaded). Before, the flag was
 * accepted and dropped: LLM_NOT_CONFIGURED.
 *
 * The five systems on the local model, as a user runs them (no error, no failed structured step,
 * structured requests sent, the model's identity in config.json, `run case` configured by
 * `--model-file` and by lexcase.config.json llm.modelFile giving the same results.jsonl but for
 * wall times, `--replay` byte-identical with no model file), are proved from the installed package
 * in tests/installed-package.test.ts; the provider itself in core/llm/local/local-provider.test.ts.
 * Where node-llama-cpp is not installed or has no binary for this machine, these tests skip and
 * their names say why.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/run-cli.js';
import { localModelUnavailable } from './support/local-model.js';
import { writeTinyGguf } from './support/tiny-gguf.js';

const unavailable = await localModelUnavailable();
const needs = unavailable ? ` (skipped: ${unavailable})` : '';
if (unavailable) console.warn(`local model tests skipped: ${unavailable}`);

const dir = mkdtempSync(join(tmpdir(), 'lexcase-local-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const tiny = () => writeTinyGguf(join(dir, 'tiny.gguf'));

describe.skipIf(!!unavailable)(`lexcase reproduce on a local model${needs}`, () => {
  it('reproduce threeply-table2 --only single --model-file: the run is done on the local model; the flag stays scoped to the grid', async () => {
    const out = join(dir, 'repro');
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
