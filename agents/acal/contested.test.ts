/**
 * A graph contested after the run changes its verdict but not results.jsonl: report.md's ACAL
 * section said nothing of it (the audit: after `lexcase acal contest … --item hearsay-test-0`,
 * the graph read "Yes" at σ 0.898, results.jsonl "No", and `lexcase report` printed the run's
 * figures with no word of the contest). It now names the contested graphs and the changed verdicts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunData } from '../../eval/report/types.js';
import type { ResultRecord } from '../../eval/types.js';
import { contest } from './contest/contest.js';
import { withResult } from './graph/recompute.js';
import { loadSampleGraph } from './graph/sample-graph.js';
import { writeGraph } from './graph/store.js';
import { acalSection } from './report-section.js';

let runDir: string;
beforeEach(() => {
  runDir = mkdtempSync(join(tmpdir(), 'acal-contested-'));
});
afterEach(() => rmSync(runDir, { recursive: true, force: true }));

/** The bundled sample graph as two items of a run, each recorded with the verdict its graph gave. */
function runOfTwo(): RunData {
  const results: ResultRecord[] = ['hearsay-train-1', 'hearsay-train-2'].map((id) => {
    const g = withResult({ ...loadSampleGraph(), itemId: id });
    writeGraph(runDir, g);
    return {
      id,
      prediction: g.result!.verdict,
      gold: 'Yes',
      correct: g.result!.verdict === 'Yes',
      ms: 10,
      metrics: { claimStrength: g.result!.claimStrength },
    };
  });
  return { dir: runDir, config: { seed: 13, config: { system: 'acal/acal' } }, results, traces: new Map(), droppedTail: false } as unknown as RunData;
}

describe('ACAL report section: graphs contested after the run', () => {
  it('names the contested graphs and the verdicts they now give beside the run figures', async () => {
    const run = runOfTwo();
    expect(run.results.map((r) => r.prediction)).toEqual(['Yes', 'Yes']);
    const before = (await acalSection(run, { iterations: 200, seed: 13 } as never))!;
    expect(before.markdown).not.toContain('Contested');

    // rejecting the supporter that won its clash drops the claim into the band: "No" (docs/acal.md)
    const { graph } = contest(runDir, 'hearsay-train-1', { type: 'reject', argument: 's2' }, { who: 'alice' });
    expect(graph.result!.verdict).toBe('No');
    const after = (await acalSection(run, { iterations: 200, seed: 13 } as never))!;
    expect(after.markdown).toContain(
      "**Contested after the run:** 1 of 2 items' argument graphs were changed by `lexcase acal contest` (`acal/audit.jsonl`); 1 of them now gives another verdict than the run recorded (hearsay-train-1: Yes → No). The figures above are the verdicts the run reached (results.jsonl)",
    );
    expect(after.json).toMatchObject({ contested: { items: 1, of: 2, changed: [{ id: 'hearsay-train-1', run: 'Yes', now: 'No' }], unreadable: 0 } });
    // the run's figures themselves stay the run's
    expect((after.json as { accuracy: unknown }).accuracy).toEqual((before.json as { accuracy: unknown }).accuracy);
  });

  it('a contest that leaves the verdict as it was is still said, with no changed verdict', async () => {
    const run = runOfTwo();
    contest(runDir, 'hearsay-train-2', { type: 'set-base', argument: 'a1', base: 0.5 }, { who: 'bob' });
    const s = (await acalSection(run, { iterations: 200, seed: 13 } as never))!;
    expect(s.markdown).toContain("1 of 2 items' argument graphs were changed by `lexcase acal contest` (`acal/audit.jsonl`); none gives another verdict");
  });
});
