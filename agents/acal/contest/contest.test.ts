import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withResult } from '../graph/recompute.js';
import { readAudit, readGraph, writeGraph, graphPath } from '../graph/store.js';
import { loadSampleGraph as loadFixture } from '../graph/sample-graph.js';
import type { ContestAction } from './actions.js';
import { applyContest } from './apply-contest.js';
import { contest } from './contest.js';

let runDir: string;
let tick = 0;
const now = () => new Date(Date.UTC(2026, 0, 1, 12, 0, tick++));

beforeEach(() => {
  runDir = mkdtempSync(join(tmpdir(), 'acal-contest-'));
  tick = 0;
  writeGraph(runDir, withResult(loadFixture()));
});
afterEach(() => rmSync(runDir, { recursive: true, force: true }));

describe('contest(): human contestation with an audit log', () => {
  it('rejecting the clash winner drops its clash outcome, lowers the claim and is audited who/when/what/before/after', () => {
    const before = readGraph(runDir, 'hearsay-train-1').result!;
    const { graph, entry } = contest(runDir, 'hearsay-train-1', { type: 'reject', argument: 's2' }, { who: 'alice', now });
    expect(graph.revision).toBe(1);
    expect(graph.result!.effectiveBase.s2).toBeUndefined();
    expect(graph.result!.effectiveBase.a1).toBe(0.55); // its only clash no longer counts
    expect(graph.result!.claimStrength).toBeLessThan(before.claimStrength);
    expect(entry).toMatchObject({
      itemId: 'hearsay-train-1',
      revision: 1,
      who: 'alice',
      when: '2026-01-01T12:00:00.000Z',
      action: { type: 'reject', argument: 's2' },
      before: { id: 's2', status: 'proposed' },
      after: { id: 's2', status: 'rejected' },
      claim: { before: { strength: before.claimStrength, verdict: 'Yes' }, after: { strength: graph.result!.claimStrength } },
    });
    expect(readGraph(runDir, 'hearsay-train-1')).toEqual(graph);
    expect(readAudit(runDir, 'hearsay-train-1')).toEqual([entry]);
  });

  it('a sequence of actions flips the verdict, and replaying the audit log on the original graph reproduces it exactly', () => {
    const actions: ContestAction[] = [
      { type: 'accept', argument: 's1' },
      { type: 'set-base', argument: 's1', base: 0.2 },
      { type: 'edit', argument: 'a2', text: 'The statement is offered to show Ronald had notice that Rebecca was unwell, not that she was.' },
      { type: 'set-base', argument: 'a2', base: 0.8 },
      { type: 'set-relation', from: 's1', to: 'a2', kind: 'none' },
      {
        type: 'add',
        side: 'attack',
        text: 'The proponent offers it only for its effect on the listener.',
        base: 0.9,
        relations: [{ to: 's2', kind: 'attack' }],
      },
    ];
    let last;
    for (const a of actions) last = contest(runDir, 'hearsay-train-1', a, { who: 'bob', now });
    const final = last!.graph;
    expect(final.revision).toBe(6);
    expect(final.result!.verdict).toBe('No');
    expect(final.arguments.find((a) => a.id === 'h1')).toMatchObject({ origin: 'human', status: 'accepted', side: 'attack', agent: 'human' });
    expect(final.relations.filter((r) => r.from === 's1' && r.to === 'a2')).toEqual([]);
    expect(final.relations.filter((r) => r.origin === 'human')).toHaveLength(2);

    const log = readAudit(runDir, 'hearsay-train-1');
    expect(log.map((e) => e.revision)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(log[5].claim).toMatchObject({ after: { verdict: 'No' } });
    // each entry's "before" claim is the previous entry's "after"
    for (let i = 1; i < log.length; i++)
      expect((log[i].claim as { before: { strength: number } }).before.strength).toBe((log[i - 1].claim as { after: { strength: number } }).after.strength);
    // deterministic: replaying the logged actions on the original graph gives the same graph, byte for byte
    let g = withResult(loadFixture());
    for (const e of log) g = applyContest(g, e.action as ContestAction, { who: e.who as string, when: e.when as string }).graph;
    expect(JSON.stringify(g)).toBe(JSON.stringify(final));
    expect(g).toEqual(readGraph(runDir, 'hearsay-train-1'));
  });

  it('a human base strength overrides rubric base + clash adjustment', () => {
    const { graph } = contest(runDir, 'hearsay-train-1', { type: 'set-base', argument: 'a1', base: 0.9 }, { who: 'c', now });
    expect(graph.result!.clashDelta.a1).toBeCloseTo(-0.15, 12);
    expect(graph.result!.effectiveBase.a1).toBe(0.9);
  });

  it('removing the attack between the clashing pair also removes the clash adjustment', () => {
    const { graph, entry } = contest(runDir, 'hearsay-train-1', { type: 'set-relation', from: 'a1', to: 's2', kind: 'none' }, { who: 'c', now });
    expect(graph.result!.clashDelta).toEqual({});
    expect(graph.result!.effectiveBase.s2).toBe(0.6);
    expect(entry.before).toHaveLength(2);
    expect(entry.after).toEqual([]);
  });

  it('rejects unknown arguments and malformed actions with clear errors, leaving graph and log untouched', () => {
    const g0 = readFileSync(graphPath(runDir, 'hearsay-train-1'), 'utf8');
    expect(() => contest(runDir, 'hearsay-train-1', { type: 'reject', argument: 'zz' })).toThrow(/argument not found: zz/);
    expect(() => contest(runDir, 'hearsay-train-1', { type: 'set-base', argument: 's1', base: 2 })).toThrow(/invalid action.base/);
    expect(() => contest(runDir, 'hearsay-train-1', { type: 'frobnicate' })).toThrow(/invalid action/);
    expect(() => contest(runDir, 'nope', { type: 'accept', argument: 's1' })).toThrow(/argument graph not found: nope/);
    expect(readFileSync(graphPath(runDir, 'hearsay-train-1'), 'utf8')).toBe(g0);
    expect(readAudit(runDir)).toEqual([]);
  });

  it('refuses a field the action does not take, naming it, instead of applying the action without it (bidirectonal: the relation was removed both ways)', () => {
    const g0 = readFileSync(graphPath(runDir, 'hearsay-train-1'), 'utf8');
    expect(() => contest(runDir, 'hearsay-train-1', { type: 'set-relation', from: 's1', to: 'a2', kind: 'none', bidirectonal: false })).toThrow(
      'action: unknown field "bidirectonal"; did you mean "bidirectional"? action takes {type, from, to, kind, bidirectional}',
    );
    expect(() =>
      contest(runDir, 'hearsay-train-1', {
        type: 'add',
        side: 'attack',
        text: 'Offered for notice.',
        base: 0.5,
        relations: [{ to: 's2', kind: 'attack', both: true }],
      }),
    ).toThrow('action: unknown field "relations.0.both"; action takes relations.0.{to, kind}');
    expect(readFileSync(graphPath(runDir, 'hearsay-train-1'), 'utf8')).toBe(g0);
    expect(readAudit(runDir)).toEqual([]);
    // spelt right, it applies
    expect(contest(runDir, 'hearsay-train-1', { type: 'set-relation', from: 's1', to: 'a2', kind: 'none', bidirectional: false }).graph.revision).toBe(1);
  });
});
