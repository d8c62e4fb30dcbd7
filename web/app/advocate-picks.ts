/**
 * What a CASE advocate's evidence leaves out, said in words (the trace view and the explorer's
 * evidence search): the picks it dropped, each with why, in the words of DROPPED_PICK_REASONS
 * ("names no handle", "no tool returned it", "beyond k", "picked again"; "×2" for a pick written twice) — and a
 * note cut to the characters the jurors read (`noteCutFrom`, the note's length).
 */
import { DROPPED_PICK_REASONS } from '../../agents/case/dropped-picks.js';
import { h } from './dom.js';

interface Rejected {
  id: string;
  reason?: string;
  times?: number;
}

/** How each reason is counted in the list's heading. */
const COUNTED: Record<keyof typeof DROPPED_PICK_REASONS, string> = {
  'names no handle': 'naming no handle shown',
  'no tool returned it': 'never returned by a tool',
  'beyond k': 'beyond k',
  'picked again': 'picked again',
};

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * The advocate's dropped picks as a list: `rejected` (with reasons) when the trace has it, else the
 * ids of `rejectedIds` (a trace from before the reasons were recorded: "reason not recorded").
 * Null when nothing was dropped.
 */
export function droppedPicks(a: { rejected?: unknown; rejectedIds?: unknown }, label: string): HTMLElement | null {
  const withReason: Rejected[] = Array.isArray(a.rejected) ? a.rejected.filter((r: any) => r && typeof r.id === 'string') : [];
  const ids: string[] = Array.isArray(a.rejectedIds) ? a.rejectedIds.filter((x: unknown) => typeof x === 'string') : [];
  const picks: Rejected[] = withReason.length ? withReason : ids.map((id) => ({ id }));
  if (!picks.length) return null;
  const counts = withReason.length
    ? Object.entries(COUNTED)
        .map(([reason, words]) => [picks.filter((p) => p.reason === reason).length, words] as const)
        .filter(([n]) => n > 0)
        .map(([n, words]) => `${n} ${words}`)
        .join(', ')
    : 'reasons not recorded';
  return h(
    'div',
    { class: 'dropped-picks', 'data-testid': 'dropped-picks', role: 'note', 'aria-label': label },
    h('p', {}, h('strong', {}, `Dropped picks (${picks.length})`), ` — ${counts}; not in the evidence:`),
    h(
      'ul',
      {},
      picks.map((p) =>
        h(
          'li',
          { 'data-testid': 'dropped-pick', 'data-reason': p.reason ?? 'unrecorded' },
          h('code', {}, p.id),
          typeof p.times === 'number' && p.times > 1 ? ` ×${p.times}` : '',
          ' — ',
          p.reason === undefined
            ? 'reason not recorded (a trace from before lexcase recorded it)'
            : Object.hasOwn(DROPPED_PICK_REASONS, p.reason)
              ? `${p.reason}: ${DROPPED_PICK_REASONS[p.reason as keyof typeof DROPPED_PICK_REASONS]}`
              : p.reason,
        ),
      ),
    ),
  );
}

/** "note cut: the first 300 of its 450 characters" beside a cut note; null when the note is whole. `limit`: the trace's advocateNoteChars. */
export function noteCut(e: { noteCutFrom?: unknown }, limit?: unknown): HTMLElement | null {
  if (typeof e.noteCutFrom !== 'number') return null;
  const n = e.noteCutFrom.toLocaleString('en-US');
  return h(
    'span',
    { class: 'tag cut', 'data-testid': 'note-cut' },
    typeof limit === 'number' ? `note cut: the first ${limit.toLocaleString('en-US')} of its ${n} characters` : `note cut from ${n} characters`,
  );
}
