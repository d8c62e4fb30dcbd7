import { describe, expect, it } from 'vitest';
import { recordUsage, UsageMeter, withUsageScope } from './usage.js';

describe('UsageMeter', () => {
  it('sums tokens, counts calls and cache hits (cache hits add no tokens)', () => {
    const m = new UsageMeter();
    m.add({ input: 100, output: 20 });
    m.add({ input: 50, output: 5 });
    m.add({ input: 999, output: 999, cached: true });
    expect(m.snapshot()).toEqual({ input: 150, output: 25, total: 175, calls: 3, cached: 1 });
  });

  it('fork() children add to their parent but not to siblings', () => {
    const run = new UsageMeter();
    const a = run.fork();
    const b = run.fork();
    a.add({ input: 10, output: 1 });
    b.add({ input: 5, output: 2 });
    expect(a.snapshot().total).toBe(11);
    expect(b.snapshot().total).toBe(7);
    expect(run.snapshot()).toMatchObject({ input: 15, output: 3, calls: 2 });
  });

  it('recordUsage counts a call once per meter when the scope meter is a fork of the model meter', async () => {
    const run = new UsageMeter();
    const item = run.fork();
    await withUsageScope(item, async () => {
      await Promise.resolve();
      recordUsage({ input: 7, output: 3 }, run);
    });
    expect(item.snapshot().total).toBe(10);
    expect(run.snapshot().total).toBe(10);
  });

  it('keeps concurrent scopes apart', async () => {
    const a = new UsageMeter();
    const b = new UsageMeter();
    const tick = () => new Promise((r) => setTimeout(r, 1));
    await Promise.all([
      withUsageScope(a, async () => {
        for (let i = 0; i < 3; i++) await tick(), recordUsage({ input: 1, output: 0 });
      }),
      withUsageScope(b, async () => {
        for (let i = 0; i < 5; i++) await tick(), recordUsage({ input: 1, output: 0 });
      }),
    ]);
    expect(a.snapshot().input).toBe(3);
    expect(b.snapshot().input).toBe(5);
  });
});
