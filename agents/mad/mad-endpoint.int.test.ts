/**
 * Opt-in (LEXCASE_INT=1) with a real OpenAI-compatible endpoint configured: MAD (sparse, 2 rounds,
 * cross-examiner) and both baselines on two Bar Exam QA val questions over the bundled default
 * index, through the experiment runner; checks the invariants a real model must meet (a verdict
 * letter among the options, 3 rationale bullets, every brief parsed or recorded as a forfeit,
 * citation checks filled) and that `compare` pairs the runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrace } from '../../eval/run-dir.js';
import { compareRuns } from '../../eval/report/compare.js';
import { loadConfig, llmConfigured } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { ensureDefaultIndex } from '../case/experiment.js';
import { runMadExperiment } from './experiment.js';
import type { DebateTrace } from './debate.js';
import '../systems.js'; // the system list hands itself to eval: the report finds each system's section

const config = await loadConfig();

describe.skipIf(!llmConfigured(config.llm))('MAD against the configured endpoint', () => {
  it('debates, judges and runs the baselines on two Bar Exam QA questions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-mad-int-'));
    try {
      const llm = createChatModel({ ...config.llm, maxTokens: config.llm.maxTokens ?? 2048 });
      const index = await ensureDefaultIndex();
      const base = { dataset: 'barexam', split: 'val' as const, index, llm, limit: 2, k: 3 };
      const mad = await runMadExperiment({ ...base, system: 'mad', rounds: 2, topology: 'sparse', crossExaminer: true, runDir: join(dir, 'mad') });
      expect(mad.ran).toBe(2);
      for (const id of mad.predictions.keys()) {
        const t = (await readTrace(mad.runDir, id)) as DebateTrace | undefined;
        expect(t).toBeDefined();
        expect(t!.rounds).toHaveLength(2);
        for (const r of t!.rounds) for (const b of r.briefs) expect(b.error !== undefined || b.argument.length > 0).toBe(true);
        if (t!.judge) {
          expect(t!.letters).toContain(t!.judge.verdict);
          expect(t!.judge.rationale).toHaveLength(3);
        }
      }
      const single = await runMadExperiment({ ...base, system: 'single-rag', runDir: join(dir, 'single') });
      const sc = await runMadExperiment({ ...base, system: 'self-consistency', samples: 3, runDir: join(dir, 'sc') });
      for (const b of [single, sc]) expect((await compareRuns(mad.runDir, b.runDir, { iterations: 200 })).shared).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
