/**
 * An endpoint's query values are masked in config.json (`?deployment=***`), so a run resumed
 * against another deployment chosen by the query (a gateway's `?deployment=`) recorded the same
 * `model.baseUrl` as its start: the resume went on without a word, and the run's accuracy counted
 * items of two models as one. config.json now records a digest of the query values
 * (`model.baseUrlQuery`, core/config.ts publicLlmConfig), never the values, and a resume that
 * changes it warns and records the change (`resumes[].changed`); a rotated key in the URL still
 * resumes.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    // what is true: which field differs and that it can change replies (a rotated key changes no digest), said once
    expect(second.stderr).toContain(
      `model.baseUrlQuery, the digest of the values of deployment, is "${second.config.resumes.at(-1).changed['model.baseUrlQuery'].to}" now, "${model.baseUrlQuery}" as it was started with`,
    );
    expect(second.stderr).toContain('Another value of deployment (a deployment, API version or model chosen by the query) can change the replies');
    expect(second.stderr).not.toContain('rotated key');
    expect(second.stderr.match(/baseUrlQuery/g)).toHaveLength(1);
    const resume = second.config.resumes.at(-1);
    expect(resume.changed['model.baseUrlQuery'].from).toBe(model.baseUrlQuery);
    expect(resume.changed['model.baseUrlQuery'].to).toMatch(/^[0-9a-f]{32}$/);
    expect(resume.changed['model.baseUrlQuery'].to).not.toBe(model.baseUrlQuery);
    // the next resume against the same deployment: nothing differs from the last attempt, nothing is warned (before: the same warning again)
    const third = await run(runDir, 'deployment=gpt-large-1106', 3);
    expect(third.stderr).not.toContain('[warn]');
    // nor said in the "resuming … with" line (before: "model.baseUrlQuery "…" (as the last resume; recorded at the start: …)" on every later resume)
    expect(third.stderr).not.toContain('baseUrlQuery');
    // back to the first deployment: differs from the last resume, warned once, and not on the resume after
    const fourth = await run(runDir, 'deployment=gpt-small-0613', 4);
    expect(fourth.stderr).toContain('against the endpoint with other query values than its last resume ran with');
    const fifth = await run(runDir, 'deployment=gpt-small-0613', 5);
    expect(fifth.stderr).not.toContain('[warn]');
    expect(fifth.stderr).not.toContain('baseUrlQuery');
    const written = readFileSync(join(runDir, 'config.json'), 'utf8') + readFileSync(join(runDir, 'report.md'), 'utf8') + second.stderr + first.stderr;
    expect(written).not.toMatch(/gpt-small-0613|gpt-large-1106/);
  }, 60_000);

  it("a run an older lexcase started, whose digest covered the key's value too: says which of the two cannot be told, never prints that digest, and once", async () => {
    const runDir = join(dir, 'older');
    await run(runDir, 'deployment=gpt-small-0613&api-key=K-1111111111', 1);
    // what config.json held before 2026-12-01T08:43:54Z: a sha256 over every query value, the key's too
    const file = join(runDir, 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    const keyed = createHash('sha256')
      .update(
        JSON.stringify([
          ['api-key', ['K-1111111111']],
          ['deployment', ['gpt-small-0613']],
        ]),
      )
      .digest('hex')
      .slice(0, 32);
    cfg.config.model.baseUrlQuery = keyed;
    cfg.provenance.createdAt = '2026-11-30T10:00:00.000Z';
    writeFileSync(file, JSON.stringify(cfg, null, 2));
    // the same deployment and key: before, "a rotated key in the URL changes no reply, but another deployment … does"
    const second = await run(runDir, 'deployment=gpt-small-0613&api-key=K-1111111111', 2);
    expect(second.stderr).toContain(
      'whose digest covered the value of api-key too: a rotated key changed it as another deployment does, and which of the two it is cannot be told',
    );
    expect(second.stderr).not.toContain(keyed);
    expect(second.stderr.match(/baseUrlQuery/g)).toHaveLength(1);
    const third = await run(runDir, 'deployment=gpt-small-0613&api-key=K-2222222222', 3);
    expect(third.stderr).not.toContain('[warn] resuming');
    expect(third.stderr).not.toContain(keyed);
    expect(third.stderr).not.toContain('baseUrlQuery');
  }, 60_000);
});
