/** MAD baselines (single-agent RAG, self-consistency) through the real client against the scripted server. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeReport } from '../../eval/report/write-report.js';
import { resultsPath } from '../../eval/run-dir.js';
import { runExperiment } from '../../eval/runner.js';
import { setLogLevel } from '../../core/log.js';
import type { SystemContext } from '../../eval/types.js';
import { createRetrievalTools } from '../../retrieval/tools/index.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { deriveSeed } from '../../core/rng.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, without } from '../case/test-support/fixtures.js';
import { createSelfConsistency, createSingleRag, majority } from './baselines.js';
import { roleOf, shownHandle } from './test-support/script.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const corpus = without(PASSAGES, ['gold0']);
const SEED = deriveSeed(7, QUESTION.id);

function ctx(url: string): SystemContext {
  const llm = createChatModel(
    llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 1, retryBaseMs: 1, retryMaxMs: 5, timeoutMs: 5000 }),
  );
  const bm25 = keywordRetriever('bm25', corpus);
  return {
    seed: SEED,
    tools: createRetrievalTools({ retrievers: { bm25 }, docs: { get: getPassageFrom(corpus) } }),
    retrievers: { bm25 },
    llm,
    getPassage: getPassageFrom(corpus),
    options: {},
  };
}

const answer = (letter: string, cite = 'P2') =>
  JSON.stringify({ reasoning: 'r', answer: letter, claims: [{ text: 'Relevant evidence is admissible unless a rule provides otherwise', cites: [cite] }] });

describe('MAD baselines', () => {
  it('majority: plurality wins; ties are broken by a seeded draw that is reproducible', () => {
    expect(majority(['B', 'C', 'B', null], 1)).toMatchObject({ winner: 'B', counts: { B: 2, C: 1 }, tie: false });
    expect(majority([null, null], 1).winner).toBeNull();
    const draws = new Set<string | null>();
    for (let s = 0; s < 40; s++) {
      const a = majority(['A', 'C'], s).winner;
      expect(majority(['C', 'A'], s).winner).toBe(a); // order of votes does not matter
      draws.add(a);
    }
    expect([...draws].sort()).toEqual(['A', 'C']);
  });

  it('single-agent RAG: one cited answer over the shared pool; citations checked', async () => {
    srv = await startScriptedServer((req) =>
      roleOf(req) === 'analyst' ? { content: answer('B', shownHandle(req, 'Rule 402.')) } : { status: 500, error: 'unexpected' },
    );
    const out = await createSingleRag({ k: 2 })(QUESTION, ctx(srv.url));
    expect(out.prediction).toBe('B');
    expect(srv.requests).toHaveLength(1);
    // the pool is shown under handles: FRE 402 is P<its place in the pool>, never "[fre402]"; the citation maps back
    const at = (out.trace as { pool: { id: string }[] }).pool.findIndex((p) => p.id === 'fre402');
    expect(srv.requests[0].text).toContain(`[P${at + 1}] Rule 402.`);
    expect(srv.requests[0].text).not.toContain('fre402');
    expect((out.trace as any).answer.citations.map((c: any) => c.id)).toEqual(['fre402']);
    expect(out.metrics).toMatchObject({ citations: 1, citationsExist: 1, citationsSupportive: 1, citationsJudgeSupportive: null, goldCited: false });
  });

  it('self-consistency: n samples with distinct seeds on the wire, majority vote, malformed sample abstains', async () => {
    const s0 = deriveSeed(SEED, 'sample-0');
    const s1 = deriveSeed(SEED, 'sample-1');
    srv = await startScriptedServer((req: RecordedRequest) => {
      if (req.body.seed === s0) return { content: answer('C', 'voucher') };
      if (req.body.seed === s1) return { content: 'not json' };
      return { content: answer('B') };
    });
    const out = await createSelfConsistency({ k: 2, samples: 4 })(QUESTION, ctx(srv.url));
    const t = out.trace as any;
    expect(out.prediction).toBe('B');
    expect(t.vote.counts).toEqual({ B: 2, C: 1 });
    expect(t.samples[1].error).toMatch(/self-consistency sample 2/);
    expect(new Set(srv.requests.map((r) => r.body.seed)).size).toBe(4);
    expect(srv.requests).toHaveLength(5); // 4 samples + 1 retry of the malformed one
    expect(t.answer.answer).toBe('B');
    // before: no stepFailures — the vote over 3 of 4 samples looked like a vote over 4
    expect(out.stepFailures).toEqual({ 'self-consistency sample': 1 });
  });

  it('a failed item keeps its error code, so the report groups it as LLM_OUTPUT_INVALID (not OTHER)', async () => {
    srv = await startScriptedServer(() => ({ content: 'B or C' }));
    const c = ctx(srv.url);
    const single = await createSingleRag({ k: 2 })(QUESTION, c);
    expect(single.prediction).toBeNull();
    expect(single.error).toMatch(/^LLM_OUTPUT_INVALID: LLM output for single-agent answer could not be parsed/);
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-mad-code-'));
    setLogLevel('silent');
    try {
      await runExperiment({
        runDir: dir,
        system: createSelfConsistency({ k: 2, samples: 2 }),
        items: [QUESTION],
        gold: (q) => q.answer,
        makeContext: () => c,
        config: { system: 'mad', mode: 'self-consistency', samples: 2 },
        seed: 7,
      });
      const report = await writeReport(dir);
      expect((report.json.sections as any).failures.byCode).toEqual({ LLM_OUTPUT_INVALID: 1 });
      expect(report.markdown).toMatch(/\| LLM_OUTPUT_INVALID \|\s+1 \|/);
    } finally {
      setLogLevel('info');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('self-consistency: unparseable samples are failed steps in results.jsonl and report.md (not "Failures — None.")', async () => {
    const bad = new Set([deriveSeed(SEED, 'sample-1'), deriveSeed(SEED, 'sample-3')]);
    srv = await startScriptedServer((req: RecordedRequest) => ({ content: bad.has(req.body.seed as number) ? 'B or C' : answer('B') }));
    const c = ctx(srv.url);
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-mad-sc-'));
    setLogLevel('silent');
    try {
      const r = await runExperiment({
        runDir: dir,
        system: createSelfConsistency({ k: 2, samples: 5 }),
        items: [QUESTION],
        gold: (q) => q.answer,
        makeContext: () => c,
        config: { system: 'mad', mode: 'self-consistency', samples: 5 },
        seed: 7,
      });
      expect(r).toMatchObject({ ran: 1, failed: 0 });
      const [line] = readFileSync(resultsPath(dir), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(line).toMatchObject({ prediction: 'B', stepFailures: { 'self-consistency sample': 2 } });
      const report = await writeReport(dir);
      expect((report.json.sections as any).failures.stepFailures).toEqual({ 'self-consistency sample': { failures: 2, items: 1 } });
      expect(report.markdown).toMatch(/\| self-consistency sample \|\s+2 \|\s+1 \|/);
    } finally {
      setLogLevel('info');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
