/**
 * Opt-in (LEXCASE_INT=1) with a real OpenAI-compatible endpoint configured: EMAR on two LegalBench
 * hearsay examples with the offline use-lite embedder, checking the loop's invariants.
 */
import { describe, expect, it } from 'vitest';
import { loadLegalBenchTask } from '../../corpora/legalbench.js';
import { loadConfig, llmConfigured } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { createEmbedder } from '../../indexer/embed/create-embedder.js';
import { runEmar } from './emar.js';
import { TASK_FRAMINGS, taskExampleToCase } from './cases.js';

const config = await loadConfig();

describe.skipIf(!llmConfigured(config.llm))('EMAR against the configured endpoint', () => {
  it('runs the recursion to convergence or depth 3 and the judge picks Yes or No', async () => {
    const llm = createChatModel({ ...config.llm, temperature: 0.1, maxTokens: config.llm.maxTokens ?? 2048 });
    const embedder = await createEmbedder({ provider: 'use-lite' });
    try {
      for (const ex of (await loadLegalBenchTask('hearsay', { split: 'train' })).slice(0, 2)) {
        const r = await runEmar(llm, taskExampleToCase(ex, TASK_FRAMINGS.hearsay), { embedder });
        expect(['A', 'B']).toContain(r.answer);
        expect(r.rounds.length).toBeGreaterThanOrEqual(1);
        expect(r.rounds.length).toBeLessThanOrEqual(3);
        if (r.stop === 'convergence') expect(r.rounds.at(-1)!.similarity).toBeGreaterThanOrEqual(0.85);
        else expect(r.rounds).toHaveLength(3);
      }
    } finally {
      await embedder.close?.();
    }
  }, 600_000);
});
