/**
 * Deterministic recomputation of an argument graph's verdict: effective base strengths (human
 * override, else rubric base + clash Δτ, clamped), the QBAF (claim ← arguments by side, plus
 * argument relations), the chosen semantics, the threshold rule (eq. 3.7) and the uncertainty
 * band. Pure; the same graph always gives the same result.
 */
import { computeStrengths } from '../semantics/index.js';
import type { Qbaf, QbafEdge } from '../semantics/types.js';
import { clashDeltas } from './clash.js';
import type { AcalGraph, GraphResult, Verdict } from './types.js';

export function toQbaf(graph: AcalGraph): { qbaf: Qbaf; effectiveBase: Record<string, number>; clashDelta: Record<string, number> } {
  const active = graph.arguments.filter((a) => a.status !== 'rejected');
  const ids = new Set(active.map((a) => a.id));
  const clashDelta = clashDeltas(graph);
  const [lo, hi] = graph.clash.clamp;
  // Null-prototype records: argument ids like "constructor" or "__proto__" are plain keys.
  const effectiveBase: Record<string, number> = Object.create(null);
  for (const a of active) {
    effectiveBase[a.id] = a.humanBase ?? (clashDelta[a.id] !== undefined ? Math.max(lo, Math.min(hi, a.baseStrength + clashDelta[a.id])) : a.baseStrength);
  }
  const edges: QbafEdge[] = active.map((a) => ({ from: a.id, to: 'claim', kind: a.side }));
  for (const r of graph.relations) if (ids.has(r.from) && ids.has(r.to)) edges.push({ from: r.from, to: r.to, kind: r.kind });
  return {
    qbaf: { nodes: [{ id: 'claim', base: graph.claim.base }, ...active.map((a) => ({ id: a.id, base: effectiveBase[a.id] }))], edges },
    effectiveBase,
    clashDelta,
  };
}

export function recompute(graph: AcalGraph): GraphResult {
  const { qbaf, effectiveBase, clashDelta } = toQbaf(graph);
  const { semantics, threshold, band } = graph.settings;
  const r = computeStrengths(qbaf, semantics);
  const claimStrength = r.strengths.claim;
  const thresholdVerdict: Verdict = claimStrength >= threshold ? 'Yes' : 'No';
  const inBand = claimStrength >= band[0] && claimStrength <= band[1];
  const judged = inBand && graph.judge && graph.judge.revision === graph.revision ? graph.judge : undefined;
  return {
    semantics,
    claimStrength,
    strengths: r.strengths,
    effectiveBase,
    clashDelta,
    converged: r.converged,
    method: r.method,
    iterations: r.iterations,
    residual: r.residual,
    thresholdVerdict,
    inBand,
    verdict: judged ? judged.decision : thresholdVerdict,
    decidedBy: judged ? 'judge' : 'threshold',
    escalation: !inBand ? 'none' : judged ? 'done' : 'needed',
  };
}

/** The graph with its `result` recomputed. */
export function withResult(graph: AcalGraph): AcalGraph {
  return { ...graph, result: recompute(graph) };
}
