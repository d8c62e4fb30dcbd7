/**
 * The trace view a trace's own shape suggests: only for a run dir whose config.json records no
 * `system` (a run dir older than the system list). Every other run's view is the one its system's
 * entry in the list names (eval/systems.ts `recordedTraceKind`, sent by the server as `traceKind`).
 */
import type { TraceKind } from './trace-kinds.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
export function guessTraceKind(t: any): TraceKind {
  if (!t || typeof t !== 'object') return 'other';
  if (t.system === 'mad' || (Array.isArray(t.rounds) && Array.isArray(t.letters))) return 'mad';
  if (t.system === 'emar' || (t.initial && Array.isArray(t.rounds))) return 'emar';
  if (t.plies && typeof t.plies === 'object' && t.triple) return 'threeply';
  if (Array.isArray(t.advocates)) return 'case';
  if (t.system === 'acal' || (t.teams && Array.isArray(t.pairJudgements)) || ['sp', 'cot', 'rag'].includes(t.system)) return 'acal';
  if (Array.isArray(t.top10) && Array.isArray(t.goldIds)) return 'retrieval';
  if (t.system === 'baseline' || t.system === 'single-rag' || t.system === 'self-consistency' || (t.retrieval && typeof t.retrieval === 'object'))
    return 'baseline';
  return 'other';
}

/** The view for a trace: the kind the server sent (the run's system's), else — a run without a recorded system — the trace's shape. */
export function viewKind(sent: unknown, trace: unknown, known: readonly string[]): TraceKind {
  return typeof sent === 'string' && known.includes(sent) ? (sent as TraceKind) : guessTraceKind(trace);
}
