/**
 * The docs check runs Markdown files (and recipes) side by side (`--jobs`, default 2), each in its
 * own work dir: tests/docs/docs-check.ts `inOrder`. What it promises: never more than `jobs` at
 * once, a job marked `alone` (a file that installs the package or runs in the checkout) with nothing
 * beside it, and the output in job order whatever order the jobs finish in.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inOrder, type Job } from './docs-check.js';

/** Jobs the test finishes by hand, recording which run at the same time. */
function jobs(spec: { f: string; alone?: boolean }[]) {
  const running = new Set<string>();
  const overlaps: string[][] = [];
  const finish = new Map<string, () => void>();
  const list: Job[] = spec.map(({ f, alone = false }) => ({
    f,
    alone,
    run: () =>
      new Promise((done) => {
        running.add(f);
        overlaps.push([...running].sort());
        finish.set(f, () => {
          running.delete(f);
          done({ out: [`line of ${f}`], fails: f.startsWith('bad') ? [`${f} failed`] : [] });
        });
      }),
  }));
  return { list, running, overlaps, finish };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('docs check: files side by side, output in document order', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs two at a time, prints each job once it and every job before it are done, and returns the failures in job order', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const j = jobs([{ f: 'a' }, { f: 'bad-b' }, { f: 'c' }, { f: 'd' }]);
    const all = inOrder(j.list, 2);
    await settle();
    expect([...j.running].sort()).toEqual(['a', 'bad-b']);
    j.finish.get('bad-b')!(); // the second finishes first: nothing printed yet (a is still running)
    await settle();
    expect([...j.running].sort()).toEqual(['a', 'c']);
    expect(log).not.toHaveBeenCalled();
    j.finish.get('c')!();
    await settle();
    j.finish.get('a')!(); // now a, b and c print, in that order
    await settle();
    expect(log.mock.calls.map((c) => c[0])).toEqual(['line of a', 'line of bad-b', 'line of c']);
    j.finish.get('d')!();
    const results = await all;
    expect(log.mock.calls.map((c) => c[0])).toEqual(['line of a', 'line of bad-b', 'line of c', 'line of d']);
    expect(results.flatMap((r) => r.fails)).toEqual(['bad-b failed']);
    expect(Math.max(...j.overlaps.map((o) => o.length))).toBe(2);
  });

  it('a job marked alone waits for the others and runs with nothing beside it', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const j = jobs([{ f: 'a' }, { f: 'b' }, { f: 'solo', alone: true }, { f: 'c' }, { f: 'd' }]);
    const all = inOrder(j.list, 2);
    for (const f of ['b', 'a', 'solo', 'c', 'd']) {
      await settle();
      j.finish.get(f)!();
    }
    await all;
    expect(j.overlaps.find((o) => o.includes('solo'))).toEqual(['solo']);
    expect(j.overlaps.some((o) => o.length === 2 && o.includes('c') && o.includes('d'))).toBe(true);
  });
});
