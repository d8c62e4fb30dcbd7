/**
 * The system registry gives each system's own headline figures, equal to what that system's
 * metrics module computes (3-ply's pooled Acc_H / Rec_U, EMAR's macro-F1 and convergence rate,
 * ACAL's macro-F1), with Wilson intervals on 0/1 figures that stay honest at n = 2.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ResultRecord } from '../eval/types.js';
import { wilsonCi } from '../eval/wilson.js';
import { acalMetrics } from './acal/metrics.js';
import { summarizeEmarRun } from './emar/metrics.js';
import { hallucinationAccuracy, utilizationRecall } from './threeply/metrics.js';
import { headlineFigures, modelOf, systemSpec, SYSTEMS } from '../eval/systems.js';
import { MIN_BOOTSTRAP_N, SMALL_N } from '../eval/headline-metrics.js';
import { EVIDENCE_RECALL_LABELS } from './common/evidence-recall.js';
import { AGENT_SYSTEMS } from './systems.js'; // the agent systems' list, handed to eval
import { recordedTraceKind } from '../eval/systems.js';
import { PAPER_SAMPLING } from './common/paper-settings.js';

const rec = (id: string, prediction: string | null, gold: string, metrics: Record<string, number | boolean | null> = {}, error?: string): ResultRecord =>
  ({ id, prediction, gold, correct: prediction === gold && !error, metrics, ms: 1, ...(error ? { error } : {}) }) as ResultRecord;
const byId = (fs: { id: string }[]) => Object.fromEntries(fs.map((f) => [f.id, f])) as Record<string, ReturnType<typeof headlineFigures>[number]>;

describe('system registry', () => {
  it('maps config.system values to one entry each; unknown systems get accuracy', () => {
    expect(systemSpec('mad/mad').id).toBe('mad');
    expect(systemSpec('mad/self-consistency').id).toBe('mad');
    expect(systemSpec('acal-cot').id).toBe('acal');
    expect(systemSpec('retrieval').id).toBe('retrieval');
    expect(systemSpec('something-new').id).toBe('other');
    expect(new Set(SYSTEMS.map((s) => s.id)).size).toBe(SYSTEMS.length);
    expect(modelOf({ model: { model: 'llama-3.3-70b', temperature: 0.3 } })).toBe('llama-3.3-70b');
    expect(modelOf({ model: null })).toBeNull();
    expect(systemSpec('retrieval').k({ ks: [10, 100, 1000] })).toBe('10, 100, 1000');
    expect(systemSpec('baseline').method({ mode: 'bm25-rag', k: 5 })).toBe('bm25-rag');
  });

  it('retrieval: Recall@k per recorded k (Wilson: one gold per query) and MRR — never an accuracy of passage ids', () => {
    const ranks = [1, 3, null, 40, 700, null, 2, 15, null, 1, 9, 120];
    const rs = ranks.map((r, i) =>
      rec(`q${i}`, `p${i}`, `g${i}`, {
        firstRank: r,
        'recall@10': r !== null && r <= 10 ? 1 : 0,
        'recall@100': r !== null && r <= 100 ? 1 : 0,
        'recall@1000': r !== null ? 1 : 0,
      }),
    );
    const f = byId(headlineFigures('retrieval', rs, { config: { ks: [10, 100, 1000] }, seed: 13 }));
    expect(Object.keys(f)).toEqual(['recall@10', 'recall@100', 'recall@1000', 'mrr']);
    expect(f['recall@10']).toMatchObject({ estimate: 5 / 12, n: 12, interval: 'wilson', smallN: true });
    expect(f['recall@10'].lo).toBeCloseTo(wilsonCi(5, 12).lo, 12);
    const mrr = ranks.reduce<number>((s, r) => s + (r ? 1 / r : 0), 0) / ranks.length;
    expect(f.mrr.estimate).toBeCloseTo(mrr, 12);
    expect(f.mrr.interval).toBe('bootstrap');
    expect(f.mrr.lo!).toBeLessThanOrEqual(mrr);
    expect(f.mrr.hi!).toBeGreaterThanOrEqual(mrr);
  });

  it('accuracy at n = 2, both right: a Wilson interval [34.2%, 100%] and a small-n flag, not [100%, 100%]', () => {
    const [a] = headlineFigures('case', [rec('a', 'A', 'A'), rec('b', 'C', 'C')], { config: {}, seed: 13 });
    expect(a).toMatchObject({ id: 'accuracy', estimate: 1, hi: 1, n: 2, smallN: true, interval: 'wilson' });
    expect(a.lo).toBeCloseTo(0.3424, 4);
    expect(SMALL_N).toBeGreaterThan(2);
  });

  it('3-ply: hallucination accuracy and factor utilization recall pooled over triples, abstention over the triples designed for it', () => {
    const ms = [
      { nH: 1, nGt: 14, nUtil: 6, abstained: false },
      { nH: 0, nGt: 17, nUtil: 0, abstained: true },
      { nH: 3, nGt: 12, nUtil: 8, abstained: false },
    ];
    const rs = [
      rec('arguable-001', 'argue', 'argue', ms[0]),
      rec('mismatched-001', 'abstain', 'abstain', ms[1]),
      rec('arguable-002', 'argue', 'argue', ms[2]),
      rec('mismatched-002', 'argue', 'abstain', { nH: 2, nGt: 10, nUtil: 1, abstained: false }),
    ];
    const all = [...ms, { nH: 2, nGt: 10, nUtil: 1 }];
    const tot = { nH: all.reduce((s, m) => s + m.nH, 0), nGt: all.reduce((s, m) => s + m.nGt, 0), nUtil: all.reduce((s, m) => s + m.nUtil, 0) };
    const f = byId(headlineFigures('threeply', rs, { config: {}, seed: 13 }));
    expect(f['hallucination-accuracy'].estimate).toBeCloseTo(hallucinationAccuracy(tot), 12);
    expect(f['factor-utilization-recall'].estimate).toBeCloseTo(utilizationRecall(tot), 12);
    expect(f.abstention).toMatchObject({ estimate: 0.5, n: 2, interval: 'wilson' });
    // 4 triples: no bootstrap interval, said so
    expect(f['hallucination-accuracy']).toMatchObject({ lo: null, hi: null, interval: 'none' });
    expect(4).toBeLessThan(MIN_BOOTSTRAP_N);
  });

  it("docs/explorer.md names each agent system's headline figures as the list has them: gold in any advocate's evidence for CASE only, CASE's metrics table's wording", () => {
    const labels = (system: string) => systemSpec(system).headline.map((m) => m.label);
    expect(labels('case')).toEqual(['accuracy', "gold in any advocate's evidence"]);
    expect(labels('case')[1]).toBe(EVIDENCE_RECALL_LABELS.goldInAnyEvidence); // the CLI's and report.md's CASE metrics row
    expect(labels('baseline')).toEqual(['accuracy']);
    expect(labels('mad/mad')).toEqual(['accuracy']);
    const doc = readFileSync(new URL('../docs/explorer.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain("accuracy and gold in any advocate's evidence for CASE; accuracy for the baselines and MAD");
  });

  it('EMAR and ACAL: macro-F1 and convergence as their own metrics modules compute them', () => {
    const letters = 'ABCD';
    const emar = [...Array(24)].map((_, i) =>
      rec(
        `e${i}`,
        i % 5 === 0 ? null : letters[(i * 7) % 4],
        letters[i % 4],
        { depth: 1 + (i % 3), converged: i % 3 !== 0 },
        i % 5 === 0 ? 'parse error' : undefined,
      ),
    );
    const s = summarizeEmarRun(emar, { seed: 13 });
    const e = byId(headlineFigures('emar', emar, { config: {}, seed: 13 }));
    expect(e['macro-f1'].estimate).toBeCloseTo(s.macroF1, 12);
    expect(e.convergence.estimate).toBeCloseTo(s.convergenceRate!, 12);
    expect(e['macro-f1'].interval).toBe('bootstrap');
    const acal = [...Array(16)].map((_, i) => rec(`a${i}`, i % 4 === 0 ? 'No' : 'Yes', i % 3 === 0 ? 'No' : 'Yes', { converged: i !== 5 }));
    const a = byId(headlineFigures('acal', acal, { config: {}, seed: 13 }));
    expect(a['macro-f1'].estimate).toBeCloseTo(acalMetrics(acal).macroF1.estimate, 12);
    expect(a.convergence).toMatchObject({ estimate: 15 / 16, n: 16 });
    // an ACAL baseline records no convergence: the figure is left out, not shown as 0
    expect(
      headlineFigures(
        'acal-cot',
        acal.map((r) => ({ ...r, metrics: {} })),
        { config: {}, seed: 13 },
      ).map((x) => x.id),
    ).toEqual(['macro-f1', 'accuracy']);
  });

  it("the one list: every agent system is in eval's list once; variants `<id>/<variant>` and older config.json names open as that system; a variant's own trace view", () => {
    expect(AGENT_SYSTEMS.map((p) => p.id)).toEqual(['case', 'baseline', 'mad', 'acal', 'threeply', 'emar']);
    for (const p of AGENT_SYSTEMS) {
      expect(SYSTEMS.filter((s) => s.id === p.id)).toEqual([p]);
      for (const v of p.variants) expect([v, systemSpec(v).id]).toEqual([v, p.id]);
      for (const v of p.variants) expect(v.startsWith(`${p.id}/`)).toBe(true);
      for (const a of p.aliases) expect(systemSpec(a).id).toBe(p.id);
    }
    expect(systemSpec('acal-cot').id).toBe('acal');
    expect(systemSpec('acal/cot').id).toBe('acal');
    expect(systemSpec('baseline/bm25-rag').id).toBe('baseline');
    // the trace view of a run each records (config.json system, provenance.lexcaseSystem)
    const kindOf = (system: string, lexcaseSystem: string | null) => recordedTraceKind({ config: { system }, provenance: { lexcaseSystem } });
    expect(kindOf('mad/mad', 'mad')).toBe('mad');
    expect(kindOf('mad/self-consistency', 'mad')).toBe('baseline');
    expect(kindOf('emar', 'emar')).toBe('emar');
    expect(kindOf('something-new', null)).toBe('other');
  });

  it("eval/systems.ts holds the list, not a library: the headline-metric builders are eval/headline-metrics.ts's, ACAL's labels ACAL's", async () => {
    const list = await import('../eval/systems.js');
    const metrics = await import('../eval/headline-metrics.js');
    const builders = [
      'accuracy',
      'rate',
      'macroF1',
      'pooled',
      'recall',
      'mrr',
      'trecMeasures',
      'threeplyAbstention',
      'figureOf',
      'proportion',
      'bootstrapped',
      'measureLabel',
    ];
    expect(builders.filter((b) => b in list)).toEqual([]);
    expect(builders.filter((b) => !(b in metrics))).toEqual([]);
    expect('ACAL_LABELS' in list || 'ACAL_LABELS' in metrics).toBe(false);
    expect((await import('./acal/labels.js')).ACAL_LABELS).toEqual(['Yes', 'No']);
    // the list still gives every system its figures through them
    expect(headlineFigures('acal/acal', [rec('a', 'Yes', 'Yes', { converged: true })], { config: {} }).map((f) => f.id)).toEqual([
      'macro-f1',
      'accuracy',
      'convergence',
    ]);
  });

  it("paper settings are gathered from the plugins: each system's beside it, none lost", () => {
    expect(Object.keys(PAPER_SAMPLING).sort()).toEqual(['acal', 'baseline', 'case', 'emar', 'mad', 'self-consistency', 'single-rag', 'threeply']);
    expect(PAPER_SAMPLING.emar).toMatchObject({ temperature: 0.1, topP: 0.9, maxTokens: 2048 });
    for (const p of AGENT_SYSTEMS) for (const [k, v] of Object.entries(p.paper)) expect(PAPER_SAMPLING[k]).toBe(v);
  });
});
