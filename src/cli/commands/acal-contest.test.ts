import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withResult } from '../../../agents/acal/graph/recompute.js';
import { loadSampleGraph } from '../../../agents/acal/graph/sample-graph.js';
import { readAudit, readGraph, writeGraph } from '../../../agents/acal/graph/store.js';
import { runCli } from '../../../tests/support/run-cli.js';

let runDir: string;
beforeEach(() => {
  runDir = mkdtempSync(join(tmpdir(), 'acal-cli-'));
  writeGraph(runDir, withResult(loadSampleGraph()));
  process.exitCode = 0;
});
afterEach(() => {
  rmSync(runDir, { recursive: true, force: true });
  vi.restoreAllMocks();
  process.exitCode = 0;
});

const cli = (...args: string[]) => runCli(args);

describe('lexcase acal contest', () => {
  it('--json reports the audit entry and recomputed result, and the change persists', async () => {
    const { out } = await cli(
      '--json',
      'acal',
      'contest',
      runDir,
      '--item',
      'hearsay-train-1',
      '--action',
      'set-base',
      '--arg',
      's1',
      '--base',
      '0.1',
      '--who',
      'carol',
    );
    const j = JSON.parse(out);
    expect(j.entry).toMatchObject({ who: 'carol', revision: 1, action: { type: 'set-base', argument: 's1', base: 0.1 } });
    expect(j.result.effectiveBase.s1).toBe(0.1);
    expect(readGraph(runDir, 'hearsay-train-1').result).toEqual(j.result);
    expect(readAudit(runDir)).toHaveLength(1);
  });

  it('adds an attacking argument with relations from flags and lowers the claim', async () => {
    const { out } = await cli(
      'acal',
      'contest',
      runDir,
      '--item',
      'hearsay-train-1',
      '--action',
      'add',
      '--side',
      'attack',
      '--base',
      '1',
      '--text',
      'Offered only to show Ronald was on notice.',
      '--relate',
      'attack:s1',
      'attack:s2',
      '--who',
      'dan',
    );
    const [, before, after] = /σ\(claim\) (0\.\d+) → (0\.\d+)/.exec(out)!;
    expect(Number(after)).toBeLessThan(Number(before));
    expect(out).toMatch(/- h1 \[human\] τ=1.00/);
    const g = readGraph(runDir, 'hearsay-train-1');
    expect(g.relations.filter((r) => r.from === 'h1' || r.to === 'h1')).toHaveLength(4);
  });

  it.each(['constructor', '__proto__', 'toString'])(
    'an argument added with id "%s" is an argument like any other (issue 26, item 11: it answered "got NaN" / "[object Object]")',
    async (id) => {
      const add = await cli(
        '--json',
        'acal',
        'contest',
        runDir,
        '--item',
        'hearsay-train-1',
        '--action',
        'add',
        '--id',
        id,
        '--side',
        'attack',
        '--base',
        '0.9',
        '--text',
        'Offered only to show notice.',
        '--relate',
        'attack:s1',
        '--who',
        'dan',
      );
      expect(add.err).toBe('');
      expect(add.code).toBe(0);
      const j = JSON.parse(add.out);
      expect(j.result.effectiveBase[id]).toBe(0.9);
      expect(typeof j.result.strengths[id]).toBe('number');
      expect(Number.isFinite(j.result.claimStrength)).toBe(true);
      // Saved and read back; a second action on it works and the claim is what an ordinary id gives.
      const set = await cli(
        '--json',
        'acal',
        'contest',
        runDir,
        '--item',
        'hearsay-train-1',
        '--action',
        'set-base',
        '--arg',
        id,
        '--base',
        '0.2',
        '--who',
        'dan',
      );
      expect(set.code).toBe(0);
      expect(JSON.parse(set.out).result.effectiveBase[id]).toBe(0.2);
      const other = mkdtempSync(join(tmpdir(), 'acal-cli-'));
      try {
        writeGraph(other, withResult(loadSampleGraph()));
        await cli(
          '--json',
          'acal',
          'contest',
          other,
          '--item',
          'hearsay-train-1',
          '--action',
          'add',
          '--id',
          'h7',
          '--side',
          'attack',
          '--base',
          '0.9',
          '--text',
          'Offered only to show notice.',
          '--relate',
          'attack:s1',
          '--who',
          'dan',
        );
        const plain = await cli(
          '--json',
          'acal',
          'contest',
          other,
          '--item',
          'hearsay-train-1',
          '--action',
          'set-base',
          '--arg',
          'h7',
          '--base',
          '0.2',
          '--who',
          'dan',
        );
        expect(JSON.parse(set.out).result.claimStrength).toBe(JSON.parse(plain.out).result.claimStrength);
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    },
  );

  it('a bad flag is one clear error and exit code 1, nothing written', async () => {
    const { err, code } = await cli('acal', 'contest', runDir, '--item', 'hearsay-train-1', '--action', 'set-base', '--arg', 's1', '--base', 'high');
    expect(err).toMatch(/option '--base <x>' argument 'high' is invalid\. expected a number from 0 to 1/);
    expect(code).toBe(1);
    expect(readAudit(runDir)).toEqual([]);
  });

  it('acal show prints the graph with strengths and the audit log', async () => {
    await cli('acal', 'contest', runDir, '--item', 'hearsay-train-1', '--action', 'reject', '--arg', 'a2', '--who', 'eve');
    const { out } = await cli('acal', 'show', runDir, '--item', 'hearsay-train-1', '--audit', '--compare');
    expect(out).toMatch(/acal-compat +σ\(claim\) = 0\.99\d\d → Yes/);
    expect(out).toMatch(/σ\(claim\) = 0\.\d{4} → Yes/);
    expect(out).toMatch(/x a2 .* rejected/);
    expect(out).toMatch(/r1 .* eve: {"type":"reject","argument":"a2"}/);
  });
});
