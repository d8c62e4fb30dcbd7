import { describe, expect, it } from 'vitest';
import { inBatches } from './batching.js';

const vec = (s: string) => Float32Array.of(s.length);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('inBatches with requests in flight', () => {
  it('keeps at most `concurrency` batches in flight, returns vectors in input order and reports progress in order', async () => {
    const texts = Array.from({ length: 23 }, (_, i) => 'x'.repeat(i + 1));
    let inFlight = 0;
    let most = 0;
    const progress: number[] = [];
    const out = await inBatches(
      texts,
      3,
      { kind: 'passage', onProgress: (n) => progress.push(n) },
      async (batch) => {
        inFlight++;
        most = Math.max(most, inFlight);
        // Later batches answer sooner: completion order differs from input order.
        await sleep(batch[0].length % 7 === 0 ? 1 : 20 - Math.min(19, batch[0].length));
        inFlight--;
        return batch.map(vec);
      },
      4,
    );
    expect(most).toBe(4);
    expect(out.map((v) => v[0])).toEqual(texts.map((t) => t.length));
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(23);
    expect(progress.every((n, i) => i === progress.length - 1 || n % 3 === 0)).toBe(true);
  });

  it('one at a time by default, and the first failure stops new batches and is thrown', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: string[] = [];
    await expect(
      inBatches(['a', 'b', 'c', 'd', 'e', 'f'], 1, { kind: 'passage' }, async (b) => {
        inFlight++;
        most = Math.max(most, inFlight);
        seen.push(b[0]);
        await sleep(2);
        inFlight--;
        if (b[0] === 'c') throw new Error('server said no');
        return b.map(vec);
      }),
    ).rejects.toThrow('server said no');
    expect(most).toBe(1);
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('stops at an abort signal', async () => {
    const ac = new AbortController();
    let calls = 0;
    await expect(
      inBatches(
        ['a', 'b', 'c', 'd'],
        1,
        { kind: 'passage', signal: ac.signal },
        async (b) => {
          if (++calls === 2) ac.abort(new Error('stop'));
          return b.map(vec);
        },
        1,
      ),
    ).rejects.toThrow('stop');
    expect(calls).toBe(2);
  });
});
