import { describe, expect, it } from 'vitest';
import type { RunData } from '../types.js';
import { failuresSection } from './failures.js';
import { repairsSection } from './repairs.js';

const run = (results: Record<string, unknown>[]): RunData =>
  ({ dir: '/x', config: { config: {} }, results, traces: new Map(), droppedTail: false }) as unknown as RunData;
const opts = { iterations: 10, seed: 1 } as never;

describe('the repairs and failures report sections (one per-key tally over results)', () => {
  const results = [
    { id: 'q1', repairs: { 'jury: confidence': 2, 'advocate: k': 0 }, stepFailures: { vote: 1 } },
    { id: 'q2', repairs: { 'jury: confidence': 1, 'advocate: k': 3 }, stepFailures: { vote: 2, judge: 1 } },
    { id: 'q3', error: 'LLM_TIMEOUT: no reply in 30 s' },
    { id: 'q4' },
  ];
  it('repairs: values and items per field, keys sorted, zero counts not an item', async () => {
    const s = await repairsSection(run(results), opts);
    expect(s!.json).toEqual({ total: 6, items: 2, byField: { 'advocate: k': { values: 3, items: 1 }, 'jury: confidence': { values: 3, items: 2 } } });
    expect(s!.markdown).toMatch(/^values repaired: 6 \(advocate: k: 3, jury: confidence: 3\) in 2 of 4 items\./);
  });
  it('failures: failed steps per step with the items that had them, beside the failed items by code', async () => {
    const s = await failuresSection(run(results), opts);
    expect(s!.json).toMatchObject({
      count: 1,
      byCode: { LLM_TIMEOUT: 1 },
      stepFailures: { judge: { failures: 1, items: 1 }, vote: { failures: 3, items: 2 } },
    });
    expect(Object.keys((s!.json as { stepFailures: object }).stepFailures)).toEqual(['judge', 'vote']);
  });
  it('failures: the same items in another completion order (a run at --concurrency 4) give the same section, listed in id order', async () => {
    const failed = [2, 10, 1, 21, 3].map((n) => ({ id: `mbe_${n}`, error: n % 2 ? 'LLM_HTTP: 500' : 'LLM_TIMEOUT: no reply in 30 s' }));
    const a = await failuresSection(run(failed), opts);
    const b = await failuresSection(run([...failed].reverse()), opts);
    expect(b).toEqual(a);
    expect(a!.markdown.match(/`mbe_\d+`/g)).toEqual(['`mbe_1`', '`mbe_2`', '`mbe_3`', '`mbe_10`', '`mbe_21`']);
    expect(a!.markdown).toMatch(/\| LLM_HTTP +\| +3 \|[\s\S]*\| LLM_TIMEOUT +\| +2 \|/);
  });
  it('a run with nothing repaired has no repairs section; with no failures the section says None', async () => {
    expect(await repairsSection(run([{ id: 'q1' }]), opts)).toBeNull();
    expect((await failuresSection(run([{ id: 'q1' }]), opts))!.markdown).toBe('None.');
  });
});
