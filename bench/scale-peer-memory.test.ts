import { describe, expect, it } from 'vitest';
import { peerMemoryVerdict, type ScaleRun } from './scale.js';

/** A run of `size` passages whose BM25S peer peaked at `peakMiB` (only the fields the verdict reads). */
function peerRun(size: number, profile: 'zipf' | 'bench', peakMiB: number, status: 'ok' | 'failed' = 'ok'): ScaleRun {
  return {
    size,
    profile,
    bm25s: { status, compare: [], ...(status === 'ok' ? { result: { buildPeakRssMiB: peakMiB } } : { reason: 'x' }) },
  } as unknown as ScaleRun;
}

describe('the BM25S peer is skipped where its projected memory does not fit', () => {
  it('projects linearly from the largest smaller size of the same corpus and names the figures', () => {
    const runs = [peerRun(100_000, 'zipf', 500), peerRun(856_835, 'zipf', 3798)];
    // 3M: 3,798 MiB × 3.5 ≈ 13.0 GiB fits 22 GiB available; 10M: ≈ 43.3 GiB does not
    expect(peerMemoryVerdict(runs, 3_000_000, 'zipf', 22 * 1024)).toBeNull();
    const v = peerMemoryVerdict(runs, 10_000_000, 'zipf', 22 * 1024);
    expect(v).toMatch(/~43\.3 GiB/);
    expect(v).toMatch(/3\.71 GiB peak at 856,835 passages × 11\.67/);
    expect(v).toMatch(/22 GiB available/);
  });

  it('runs the peer when no smaller size of that corpus ran it (another corpus or a failed peer is no basis)', () => {
    const runs = [peerRun(856_835, 'bench', 3798), peerRun(100_000, 'zipf', 500, 'failed')];
    expect(peerMemoryVerdict(runs, 10_000_000, 'zipf', 1024)).toBeNull();
  });
});
