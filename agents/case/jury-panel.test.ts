import { describe, expect, it } from 'vitest';
import { deriveSeed } from '../../core/rng.js';
import { panelFor, samplePanel } from './jury-panel.js';
import { PERSONAS } from './personas.js';

const names = (ps: { name: string }[]) => ps.map((p) => p.name);
const ids = Array.from({ length: 20 }, (_, i) => `mbe_${i}`);

describe('seeded jury panel', () => {
  it('the paper pool has the five personas', () => {
    expect(names([...PERSONAS])).toEqual(['Strict Textualist', 'Legal Realist', 'Precedent Loyalist', 'Equity Advocate', "Devil's Advocate"]);
  });
  it('draws 3 distinct personas', () => {
    for (const id of ids) {
      const p = names(panelFor(13, id));
      expect(p).toHaveLength(3);
      expect(new Set(p).size).toBe(3);
    }
  });
  it('same run seed and question → same panel (rerun/resume)', () => {
    for (const id of ids) expect(names(panelFor(13, id))).toEqual(names(panelFor(13, id)));
    expect(names(samplePanel(deriveSeed(13, 'mbe_3')))).toEqual(names(panelFor(13, 'mbe_3')));
  });
  it('different seeds give different panels', () => {
    const a = ids.map((id) => names(panelFor(13, id)).join('|'));
    const b = ids.map((id) => names(panelFor(14, id)).join('|'));
    expect(a).not.toEqual(b);
    // panels vary across questions too (not one fixed panel)
    expect(new Set(a).size).toBeGreaterThan(3);
  });
  it('rejects a panel larger than the pool', () => {
    expect(() => samplePanel(1, 6)).toThrow(/jurors/);
  });
});
