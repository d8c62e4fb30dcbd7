/**
 * A run that searches the default hybrid (its weights, RRF k and depth were tuned on Bar Exam QA
 * train, split seed 13) over those very questions says so: on stderr and in config.json
 * (`hybridTuningOverlap`), as `eval retrieval` already did for its figures. Before, `run baseline
 * --mode hybrid-rag --split train --limit 3` printed accuracy and "gold in the prompt context"
 * with nothing saying the retriever had been tuned on those questions (exit 0). Driven through the
 * CLI and the real OpenAI client against a scripted server on 127.0.0.1, over Bar Exam questions'
 * gold passages and legal-corpus passages with dense vectors from the tiny test BERT (so the index
 * offers the default hybrid of bm25, qld and dense).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../tests/support/run-cli.js';
import { useScriptedLlm } from '../tests/support/scripted-llm-env.js';
import { schemaFollowing, startScriptedServer } from '../tests/support/scripted-openai-server.js';
import { useSmallHybridIndex } from '../tests/support/small-hybrid-index.js';
import { runCaseExperiment } from './case/experiment.js';

const fixture = useSmallHybridIndex('lexcase-hybrid-tuning-runs-');
afterEach(() => vi.unstubAllEnvs());

const overlapOf = (runDir: string): unknown => JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config.hybridTuningOverlap;
const TUNED = /^(\d+) of the (\d+) questions are ones the default hybrid settings were tuned on \(barexam train, split seed 13\)/;

describe('a run searching the default hybrid over its tuning questions says so', () => {
  it('run baseline --mode hybrid-rag --split train: stderr and config.json, counted anew when the run grows; not on val of seed 13 nor for bm25-rag', async () => {
    const srv = await startScriptedServer(schemaFollowing());
    try {
      useScriptedLlm(srv.url);
      const baseline = (mode: string, split: string, limit: number, runDir: string) =>
        runCli(['run', 'baseline', '--mode', mode, '--split', split, ...fixture.runArgs(runDir, limit)]);
      const train = join(fixture.dir(), 'hybrid-train');
      const r = await baseline('hybrid-rag', 'train', 2, train);
      expect(r.code, r.stderr).toBe(0);
      // before: neither
      expect(r.stderr).toMatch(/hybrid: 2 of the 2 questions are ones the default hybrid settings were tuned on/);
      expect(overlapOf(train)).toMatch(TUNED);
      // a grown run (--limit 3) records its own count, and is not refused for the changed record
      const grown = await baseline('hybrid-rag', 'train', 3, train);
      expect(grown.code, grown.stderr).toBe(0);
      expect(String(overlapOf(train)).match(TUNED)?.slice(1)).toEqual(['3', '3']);
      for (const [mode, split] of [
        ['hybrid-rag', 'val'],
        ['bm25-rag', 'train'],
      ] as const) {
        const runDir = join(fixture.dir(), `${mode}-${split}`);
        const q = await baseline(mode, split, 1, runDir);
        expect(q.code, q.stderr).toBe(0);
        expect(q.stderr).not.toMatch(/tuned on/);
        expect(overlapOf(runDir)).toBeUndefined();
      }
      // run mad --method hybrid on the train split
      const mad = join(fixture.dir(), 'mad-hybrid-train');
      const m = await runCli([
        'run',
        'mad',
        '--method',
        'hybrid',
        '--split',
        'train',
        '--limit',
        '1',
        '--k',
        '2',
        '--index',
        fixture.index(),
        '--run-dir',
        mad,
        '--no-cache',
      ]);
      expect(m.code, m.stderr).toBe(0);
      expect(String(overlapOf(mad)).match(TUNED)?.slice(1)).toEqual(['1', '1']);
    } finally {
      await srv.close();
    }
  }, 180_000);

  it('run case with the hybrid among its searches, on another split seed: the val questions that were seed-13 train ones', async () => {
    const caseRun = (name: string, tools: string[]) =>
      runCaseExperiment({
        system: 'case',
        offline: true,
        evidence: 'plan',
        dataset: 'barexam',
        split: 'val',
        splitSeed: 7,
        index: fixture.index(),
        limit: 10,
        runDir: join(fixture.dir(), name),
        tools,
      });
    await caseRun('case-hybrid-seed7', ['hybrid']);
    const [n, of] = (String(overlapOf(join(fixture.dir(), 'case-hybrid-seed7'))).match(TUNED) ?? []).slice(1).map(Number);
    expect(of).toBe(10);
    expect(n).toBeGreaterThan(0);
    // CASE searching bm25 only: no hybrid searched, nothing recorded
    await caseRun('case-bm25-seed7', ['bm25']);
    expect(overlapOf(join(fixture.dir(), 'case-bm25-seed7'))).toBeUndefined();
  }, 120_000);
});
