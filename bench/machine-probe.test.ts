/**
 * The machine probe (bench/machine-probe.ts): the pointer chase is one cycle through every entry (so
 * its reads cannot settle into a short loop that stays in cache), and a probe gives finite figures.
 */
import { describe, expect, it } from 'vitest';
import { chaseCycle, hugePages, probeLine, probeMachine } from './machine-probe.js';

describe('machine probe', () => {
  it('chases one cycle through every entry: from 0 back to 0 after exactly n reads', () => {
    for (const n of [2, 3, 1000, 1 << 16]) {
      const a = chaseCycle(n);
      const seen = new Uint8Array(n);
      let p = 0;
      let steps = 0;
      let revisits = 0;
      do {
        revisits += seen[p];
        seen[p] = 1;
        p = a[p];
        steps++;
      } while (p !== 0 && steps <= n);
      expect({ steps, revisits }).toEqual({ steps: n, revisits: 0 });
    }
    // seeded: the same cycle every time
    expect(chaseCycle(1000)).toEqual(chaseCycle(1000));
  });

  it('times the fixed work: finite ns per integer step and per dependent read, in a log line', () => {
    const p = probeMachine();
    expect(Number.isFinite(p.opNs) && p.opNs > 0).toBe(true);
    expect(Number.isFinite(p.readNs) && p.readNs > 0).toBe(true);
    expect(probeLine(p, p)).toBe(`machine probe: op ${p.opNs} → ${p.opNs} ns, read ${p.readNs} → ${p.readNs} ns`);
    expect(probeLine(undefined, p)).toBe('machine probe: –');
  });

  it("records the kernel's huge-page mode and the GLIBC_TUNABLES the children inherit", () => {
    const h = hugePages();
    expect(h.thp === null || ['always', 'madvise', 'never'].includes(h.thp)).toBe(true);
    expect(h.glibcTunables).toBe(process.env.GLIBC_TUNABLES ?? null);
  });
});
