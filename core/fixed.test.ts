import { describe, expect, it } from 'vitest';
import { fixed } from './fixed.js';

describe('fixed (display text of a number)', () => {
  it('drops the sign of a tiny negative that rounds to zero, as search prints a near-zero score', () => {
    expect((-0.00001).toFixed(4)).toBe('-0.0000');
    expect(fixed(-0.00001, 4)).toBe('0.0000');
    expect(fixed(-1e-17, 0)).toBe('0');
    expect(fixed(-0.00006, 4)).toBe('-0.0001');
    expect(fixed(-7.19123, 4)).toBe('-7.1912');
    expect(fixed(0.5, 1)).toBe('0.5');
  });
});
