/**
 * An endpoint's query values are masked in config.json (`?deployment=***`), so a run resumed
 * against another deployment chosen by the query (a gateway's `?deployment=`) recorded the same
 * `model.baseUrl` as its start: the resume went on without a word, and the run's accuracy counted
 * items of two models as one. config.json now records a digest of the query values
 * (`model.baseUrlQuery`, core/config.ts publicLlmConfig), never the values, and a resume that
 * changes it warns and records the change (`resumes[].changed`); a rotated key in the URL still
 * resumes.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages, loadQuestions } from '../corpora/registry.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { closeSparseIndexes } from '../retrieval/open.js';
import { startScriptedServer, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { runCli } from '../tests/support/run-cli.js';

let dir: string;
let index: string;
let srv: ScriptedServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-resume-query-'));
  index = join(dir, 'idx');
  const gold = new Set((await loadQuestions('barexam', 'val')).slice(0, 2).flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'test', workers: 0 },
  );
  srv = await startScriptedServer(() => ({ content: JSON.stringify({ reasoning: 'the rule applies', answer: 'B' }) }));
}, 60_000);

afterAll(async () => {
  await srv?.close();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => vi.unstubAllEnvs());

/** `run baseline --mode llm-only` of the first `limit` questions, the endpoint given with `query`. */
async function run(runDir: string, query: string, limit: number) {
  for (const v of ['OPENAI_BASE_URL', 'OPENAI_API_KEY', 'LEXCASE_LLM_API_KEY', 'LEXCASE_LLM_TEMPERATURE']) vi.stubEnv(v, undefined as unknown as string);
  vi.stubEnv('LEXCASE_LLM_BASE_URL', `${srv.url}?${query}`);
  vi.stubEnv('LEXCASE_LLM_MODEL', 'gateway');
  const r = await runCli(['run', 'baseline', '--mode', 'llm-only', '--index', index, '--limit', String(limit), '--run-dir', runDir, '--no-cache']);
  expect(r.code, r.stderr).toBe(0);
  return { ...r, config: JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')) };
}

describe('an endpoint query value a resume changes', () => {
  it('another ?deployment= on resume warns and is recorded; the values themselves are written nowhere', async () => {
    const runDir = join(dir, 'run');
    const first = await run(runDir, 'deployment=gpt-small-0613', 1);
    const model = first.config.config.model;
    expect(model.baseUrl).toBe(`${srv.url}?deployment=***`);
    expect(model.baseUrlQuery).toMatch(/^[0-9a-f]{32}$/);
    // the requests went to the deployment asked for
    expect(srv.requests.map((q) => q.path)).toContain('/v1/chat/completions?deployment=gpt-small-0613');

    const second = await run(runDir, 'deployment=gpt-large-1106', 2);
    // before: the resume went on without a word ("resuming …: 1 of 2 items already done")
    expect(second.stderr).toMatch(/\[warn\] resuming .* against the endpoint with other query values than it was started with/);
    expect(second.stderr).toContain(`model.baseUrlQuery "${model.baseUrlQuery}" recorded`);
    const resume = second.config.resumes.at(-1);
    expect(resume.changed['model.baseUrlQuery'].from).toBe(model.baseUrlQuery);
    expect(resume.changed['model.baseUrlQuery'].to).toMatch(/^[0-9a-f]{32}$/);
    expect(resume.changed['model.baseUrlQuery'].to).not.toBe(model.baseUrlQuery);
    const written = readFileSync(join(runDir, 'config.json'), 'utf8') + readFileSync(join(runDir, 'report.md'), 'utf8') + second.stderr + first.stderr;
    expect(written).not.toMatch(/gpt-small-0613|gpt-large-1106/);
  }, 60_000);
});
