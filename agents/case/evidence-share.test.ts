import { describe, expect, it } from 'vitest';
import { shareEvidence } from './evidence-share.js';
import type { AdvocateResult } from './types.js';

const adv = (letter: string, ranked: [string, number][]): AdvocateResult => ({
  hypothesis: { key: letter, letter, text: `option ${letter}` },
  stance: 'for',
  evidence: ranked.map(([id, score]) => ({ id, score, justification: 'offline heuristic, no LLM' })),
  toolCalls: [],
  rejectedIds: [],
  steps: 0,
  stop: 'offline',
  tokens: 0,
  retrievalScores: {},
});

describe('shareEvidence', () => {
  // Two advocates that both rank the hearsay rule passage mbe_12 first; B ranks it higher.
  const a = adv('A', [
    ['mbe_12', 0.09],
    ['fre-801', 0.08],
    ['cap-1#p2', 0.05],
    ['cap-7#p1', 0.02],
  ]);
  const b = adv('B', [
    ['mbe_12', 0.1],
    ['fre-803', 0.07],
    ['fre-801', 0.06],
    ['cap-9#p4', 0.01],
  ]);

  it('share 1: a passage goes only to the advocate that ranks it highest, and the other takes its next candidates', () => {
    const [sa, sb] = shareEvidence([a, b], 2, 1).map((x) => x.evidence.map((e) => e.id));
    expect(sb).toEqual(['mbe_12', 'fre-803']);
    expect(sa).toEqual(['fre-801', 'cap-1#p2']);
    expect(new Set([...sa, ...sb]).size).toBe(4);
  });

  it('share ≥ number of advocates changes nothing but the cut to k', () => {
    const out = shareEvidence([a, b], 3, 2);
    expect(out[0].evidence.map((e) => e.id)).toEqual(['mbe_12', 'fre-801', 'cap-1#p2']);
    expect(out[1].evidence.map((e) => e.id)).toEqual(['mbe_12', 'fre-803', 'fre-801']);
    expect(out[0].hypothesis.letter).toBe('A');
  });
});
