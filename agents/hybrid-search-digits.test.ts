/**
 * An agent run that searches with a hybrid records the digits its searches read the fused scores
 * with (config.json `searchScoreDigits`: { hybrid: 10 }, Retriever.scoreDigits). Each search's top-k
 * cut (retrieval/top-k.ts printedRun) orders the fused scores at 10 significant digits; an older
 * lexcase read them to 6 decimals, where close fused scores tie (then ordered by id), so a run dir it
 * started may hold items that saw another passage at a cut. `run mad --method hybrid` recorded nothing
 * of it, so resuming such a dir said nothing; now it warns naming searchScoreDigits, as for
 * searchRanking (eval/resume-unrecorded.ts). Driven through the CLI and the real OpenAI client
 * against a scripted server on 127.0.0.1 answering each request with an instance of its schema, on
 * Bar Exam val questions over their gold passages and 150 legal-corpus passages, with dense vectors
 * from the tiny test BERT (so the index offers hybrid).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../tests/support/run-cli.js';
import { useScriptedLlm } from '../tests/support/scripted-llm-env.js';
import { schemaFollowing, startScriptedServer } from '../tests/support/scripted-openai-server.js';
import { useSmallHybridIndex } from '../tests/support/small-hybrid-index.js';
import { runCaseExperiment } from './case/experiment.js';
import { log } from '../core/log.js';

const fixture = useSmallHybridIndex('lexcase-hybrid-search-digits-');
afterEach(() => vi.unstubAllEnvs());

const configOf = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));

describe("agent runs that search with a hybrid record its fused scores' digits", () => {
  it('run mad --method hybrid records searchScoreDigits { hybrid: 10 } (--method bm25 none); resuming a dir without it warns naming it and records it', async () => {
    const srv = await startScriptedServer(schemaFollowing());
    try {
      useScriptedLlm(srv.url);
      const mad = (method: string, runDir: string, limit: number) =>
        runCli(['run', 'mad', '--method', method, '--split', 'val', ...fixture.runArgs(runDir, limit)]);
      const bm25 = join(fixture.dir(), 'mad-bm25');
      expect((await mad('bm25', bm25, 1)).code).toBe(0);
      expect(configOf(bm25).config.searchScoreDigits).toBeUndefined();

      const hybrid = join(fixture.dir(), 'mad-hybrid');
      expect((await mad('hybrid', hybrid, 1)).code).toBe(0);
      const cfg = configOf(hybrid);
      expect(cfg.config.searchScoreDigits).toEqual({ hybrid: 10 });
      // the dir as an older lexcase left it: its searches cut at 6 decimals, nothing recorded
      delete cfg.config.searchScoreDigits;
      writeFileSync(join(hybrid, 'config.json'), JSON.stringify(cfg));
      const r = await mad('hybrid', hybrid, 2);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        /does not record searchScoreDigits \(the significant digits a hybrid's fused scores are read with where each search's top k is cut/,
      );
      expect(r.stdout + r.stderr).toMatch(/ran 1, skipped 1/);
      const after = configOf(hybrid);
      expect(after.config.searchScoreDigits).toEqual({ hybrid: 10 });
      expect(after.resumes.at(-1).unchecked).toEqual(['searchScoreDigits']);
    } finally {
      await srv.close();
    }
  }, 120_000);

  it('run case records it only where its searches use the hybrid (--tools hybrid), not for a hybrid --tools or its offline advocates leave out', async () => {
    const caseRun = (name: string, tools: string[] | undefined, limit = 1) =>
      runCaseExperiment({
        system: 'case',
        offline: true,
        evidence: 'plan',
        dataset: 'barexam',
        split: 'val',
        index: fixture.index(),
        limit,
        runDir: join(fixture.dir(), name),
        tools,
      });
    await caseRun('case-hybrid', ['hybrid']);
    expect(configOf(join(fixture.dir(), 'case-hybrid')).config).toMatchObject({
      searchRanking: 'trec_eval, top k past ties',
      searchScoreDigits: { hybrid: 10 },
    });
    // --tools bm25, and no --tools (the offline advocates fuse bm25, qld and dense): no hybrid searched, none recorded (before: { hybrid: 10 })
    for (const [name, tools] of [
      ['case-bm25', ['bm25']],
      ['case-all', undefined],
    ] as const) {
      await caseRun(name, tools ? [...tools] : undefined);
      const cfg = configOf(join(fixture.dir(), name)).config;
      expect(cfg.searchRanking).toBe('trec_eval, top k past ties');
      expect(cfg.searchScoreDigits).toBeUndefined();
    }
    // the LLM CASE: the methods of its search tools after --tools
    const srv = await startScriptedServer(schemaFollowing());
    try {
      useScriptedLlm(srv.url);
      for (const [tools, digits] of [
        ['bm25,rewrite', undefined],
        ['bm25,hybrid', { hybrid: 10 }],
      ] as const) {
        const runDir = join(fixture.dir(), `case-llm-${tools}`);
        const r = await runCli([
          'run',
          'case',
          '--tools',
          tools,
          '--jurors',
          '1',
          '--max-steps',
          '2',
          '--split',
          'val',
          '--limit',
          '1',
          '--index',
          fixture.index(),
          '--run-dir',
          runDir,
          '--no-cache',
        ]);
        expect(r.code, r.stderr).toBe(0);
        expect(configOf(runDir).config.searchScoreDigits).toEqual(digits);
      }
    } finally {
      await srv.close();
      vi.unstubAllEnvs();
    }
    const warn = vi.spyOn(log, 'warn');
    try {
      // a dir a lexcase before searchScoreDigits wrote (nothing recorded) resumes with no warning about it (before: "does not record searchScoreDigits")
      const r = await caseRun('case-bm25', ['bm25'], 2);
      expect(r.ran).toBe(1);
      // a dir the lexcase before this one wrote, { hybrid: 10 } recorded for a hybrid --tools left out: resumes, not refused as a different config
      const older = join(fixture.dir(), 'case-all');
      const cfg = configOf(older);
      cfg.config.searchScoreDigits = { hybrid: 10 };
      writeFileSync(join(older, 'config.json'), JSON.stringify(cfg));
      expect((await caseRun('case-all', undefined, 2)).ran).toBe(1);
      expect(warn.mock.calls.map((c) => String(c[0])).join('\n')).not.toContain('searchScoreDigits');
    } finally {
      warn.mockRestore();
    }
  }, 120_000);
});
