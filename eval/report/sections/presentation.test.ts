import { describe, expect, it } from 'vitest';
import type { RunData } from '../types.js';
import { presentationSection } from './presentation.js';

const run = (traces: Record<string, unknown>[]): RunData =>
  ({ dir: '/x', config: { config: {} }, results: [], traces: new Map(traces.map((t, i) => [`q${i}`, t])), droppedTail: false }) as unknown as RunData;

describe('the presentation-order report section', () => {
  it('counts the seeded draws of every trace per kind, and what came first (the `first` label when given)', async () => {
    const s = await presentationSection(
      run([
        {
          presentation: [
            { kind: 'clash sides', at: 's1~a1', order: ['support', 'attack'], seed: 1 },
            { kind: 'clash sides', at: 's2~a1', order: ['attack', 'support'], seed: 2 },
            { kind: 'argument order', order: ['a1', 's1'], first: 'attack', seed: 3 },
          ],
        },
        { presentation: [{ kind: 'clash sides', at: 's1~a1', order: ['attack', 'support'], seed: 4 }] },
        { verdict: {} },
      ]),
      { iterations: 10, seed: 1 },
    );
    expect(s!.json).toEqual({ 'argument order': { draws: 1, first: { attack: 1 } }, 'clash sides': { draws: 3, first: { support: 1, attack: 2 } } });
    expect(s!.markdown).toMatch(/\| clash sides +\| +3 \| attack 2, support 1 +\|/);
  });
  it('is left out of a run whose traces record no draw', async () => {
    expect(await presentationSection(run([{ a: 1 }]), { iterations: 10, seed: 1 })).toBeNull();
  });
});
