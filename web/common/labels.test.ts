import { describe, expect, it } from 'vitest';
import { keysDiffer, placeWords, systemLabel } from './labels.js';
import { placeOf } from '../server/passage-api.js';

describe('explorer labels', () => {
  it('names a system once: "baseline (CASE)" stays as it is; an id the name lacks is added', () => {
    expect(systemLabel('baseline (CASE)', 'baseline')).toBe('baseline (CASE)');
    expect(systemLabel('CASE', 'case')).toBe('CASE');
    expect(systemLabel('MAD', 'mad-sparse')).toBe('MAD (mad-sparse)');
  });
  it('agrees count and verb: 1 key differs, 2 keys differ', () => {
    expect(keysDiffer(1)).toBe('1 key differs');
    expect(keysDiffer(2)).toBe('2 keys differ');
  });
  it('says where in a trace a passage is in words, not as a JSON path', () => {
    const trace = { goldIds: ['p1'], advocates: [{ toolCalls: [{ ids: ['p2'] }] }] };
    expect(placeWords(placeOf(trace, 'p1')!)).toBe('gold passages');
    expect(placeWords(placeOf(trace, 'p2')!)).toBe('advocates › tool calls › returned ids');
    expect(placeWords('proponent › citedPassages')).toBe('proponent › cited passages');
  });
});
