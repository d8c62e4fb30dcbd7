/**
 * What a CASE advocate's evidence leaves out, said in words (the trace view and the explorer's
 * evidence search): the picks it dropped, each with why — "no tool returned it" (a passage never
 * shown to it: an unknown handle, an invented id) or "beyond k" (picked after it had its k) — and a
 * note cut to the characters the jurors read (`noteCutFrom`, the note's length).
 */
import { h } from './dom.js';

interface Rejected {
  id: string;
  reason?: string;
}

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
  const beyondK = picks.filter((p) => p.reason === 'beyond k').length;
  const never = picks.filter((p) => p.reason === 'no tool returned it').length;
  const counts = withReason.length
    ? [beyondK && `${beyondK} beyond k`, never && `${never} never returned by a tool`].filter(Boolean).join(', ')
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
          ' — ',
          p.reason === 'beyond k'
            ? 'beyond k: picked after the advocate already had its k passages'
            : p.reason === 'no tool returned it'
              ? 'no tool returned it: a passage never shown to the advocate'
              : (p.reason ?? 'reason not recorded (a trace from before lexcase recorded it)'),
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
