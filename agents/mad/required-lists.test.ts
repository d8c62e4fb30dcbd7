/**
 * The lists a counted figure is made of are required in a reply, never filled in as empty: a MAD
 * brief or answer without `claims`, a claim without `cites`, an ACAL argument without
 * `citedPassageIds` and a 3-ply distillation without `c1`/`c2`/`c3` are refused (asked again, then
 * a failure). Before, `.default([])` read each as "no claims", "cites nothing" or "no factor": a
 * reply under misspelt keys scored as an answer that cited nothing (3-ply: 100% hallucination
 * accuracy). Strict mode sends every key as required, so every value the sent schema allows still
 * parses (the contract-fuzz property, tests/contract-fuzz.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { briefSchema, citedAnswerSchema } from './schemas.js';
import { argumentsSchema } from '../acal/llm/generate-arguments.js';
import { distilledSchema } from '../threeply/schemas.js';

describe('lists a figure counts are required in a reply', () => {
  it('MAD: a brief without claims, a claim without cites, an answer without claims are refused', () => {
    expect(briefSchema(['P1'], 'opening').safeParse({ argument: 'a' }).success).toBe(false);
    expect(briefSchema(['P1'], 'opening').safeParse({ argument: 'a', claims: [{ text: 't' }] }).success).toBe(false);
    expect(briefSchema(['P1'], 'opening').safeParse({ argument: 'a', claims: [{ text: 't', cites: [] }] }).success).toBe(true);
    expect(citedAnswerSchema(['A', 'B'], ['P1']).safeParse({ reasoning: 'r', answer: 'A' }).success).toBe(false);
  });
  it('ACAL: an argument without citedPassageIds is refused', () => {
    expect(argumentsSchema(['P1']).safeParse({ arguments: [{ text: 'a' }, { text: 'b' }] }).success).toBe(false);
    expect(
      argumentsSchema(['P1']).safeParse({
        arguments: [
          { text: 'a', citedPassageIds: [] },
          { text: 'b', citedPassageIds: ['P1'] },
        ],
      }).success,
    ).toBe(true);
  });
  it('3-ply: lists under C1/C2/C3 are no distillation', () => {
    const s = distilledSchema(['F4 Agreed-not-to-disclose (P)']);
    expect(s.safeParse({ C1: ['F4 Agreed-not-to-disclose (P)'], C2: [], C3: [] }).success).toBe(false);
    expect(s.safeParse({ c1: [], c2: [], c3: [] }).success).toBe(true);
  });
});
