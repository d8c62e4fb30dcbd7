import { describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { applyPaperSampling, degeneracyWarnings } from './paper-settings.js';

const defaults = llmConfigSchema.parse({});

describe("the papers' sampling settings as defaults", () => {
  it('CASE and its baselines default to the paper temperature 0.3; EMAR to 0.1 / top-p 0.9 / 2048 tokens', () => {
    expect(applyPaperSampling('case', defaults, []).llm.temperature).toBe(0.3);
    expect(applyPaperSampling('baseline', defaults, []).fromPaper).toEqual(['temperature']);
    expect(applyPaperSampling('emar', defaults, [])).toMatchObject({
      llm: { temperature: 0.1, topP: 0.9, maxTokens: 2048 },
      fromPaper: ['temperature', 'topP', 'maxTokens'],
    });
  });

  it('a value set in the config or environment wins, even when it equals the LLM default', () => {
    const r = applyPaperSampling('case', { ...defaults, temperature: 0 }, ['temperature', 'model']);
    expect(r.llm.temperature).toBe(0);
    expect(r.fromPaper).toEqual([]);
  });

  it('systems whose paper gives no sampling settings keep the LLM default and say so', () => {
    for (const s of ['mad', 'single-rag', 'acal'] as const) {
      const r = applyPaperSampling(s, defaults, []);
      expect(r.llm.temperature).toBe(0);
      expect(r.fromPaper).toEqual([]);
      expect(r.source).toMatch(/no sampling settings/);
    }
  });
});

describe('degenerate settings are warned about', () => {
  it('self-consistency at temperature 0, or with one sample', () => {
    expect(degeneracyWarnings('self-consistency', { temperature: 0, samples: 5 })[0]).toMatch(/identical samples/);
    expect(degeneracyWarnings('self-consistency', { temperature: 0.7, samples: 5 })).toEqual([]);
    expect(degeneracyWarnings('self-consistency', { temperature: 0.7, samples: 1 })[0]).toMatch(/is single-rag/);
  });

  it('a CASE jury below three, a one-round debate', () => {
    expect(degeneracyWarnings('case', { jurors: 1 })[0]).toMatch(/one persona decides alone/);
    expect(degeneracyWarnings('case', { jurors: 3, temperature: 0 })).toEqual([]);
    expect(degeneracyWarnings('mad', { rounds: 1 })[0]).toMatch(/no rebuttal/);
    expect(degeneracyWarnings('mad', { rounds: 2 })).toEqual([]);
  });
});
