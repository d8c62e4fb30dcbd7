/**
 * Opt-in (LEXCASE_INT=1) with a real OpenAI-compatible endpoint configured (LEXCASE_LLM_BASE_URL,
 * LEXCASE_LLM_MODEL, ...): one triple of each scenario through the reflective system and the
 * single-agent baseline, checking only what must hold for any model.
 */
import { describe, expect, it } from 'vitest';
import { loadTradeSecretModel } from '../../corpora/trade-secret.js';
import { loadConfig, llmConfigured } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import type { SystemContext } from '../../eval/types.js';
import { buildScenarios, SCENARIO_MODES } from './scenarios.js';
import { createThreePlySystem } from './system.js';

const config = await loadConfig();
const factors = loadTradeSecretModel();

describe.skipIf(!llmConfigured(config.llm))('3-ply systems against the configured endpoint', () => {
  const ctx = (): SystemContext => ({
    seed: 1,
    tools: [],
    retrievers: {},
    llm: createChatModel({ ...config.llm, maxTokens: config.llm.maxTokens ?? 1000 }),
    getPassage: async () => undefined,
    options: {},
  });
  for (const kind of ['reflective', 'single'] as const) {
    it.each(SCENARIO_MODES)(
      `${kind} on a %s triple yields a scored argument or an abstention`,
      async (mode) => {
        const [t] = buildScenarios({ mode, n: 1, seed: 13 }, factors);
        const out = await createThreePlySystem({ kind, factors })(t, ctx());
        expect(['argue', 'abstain']).toContain(out.prediction);
        expect(out.metrics!.nGt).toBe(t.c1.factors.length + t.c2.factors.length + t.c3.factors.length);
        expect(out.metrics!.factorUtilizationRecall).toBeGreaterThanOrEqual(0);
        expect(out.metrics!.factorUtilizationRecall).toBeLessThanOrEqual(1);
      },
      300_000,
    );
  }
});
