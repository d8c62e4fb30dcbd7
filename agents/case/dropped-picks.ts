/**
 * Why a CASE advocate dropped a pick (RejectedPick, types.ts): the one list of reasons, each with its
 * words, that the trace, `evidence --json`/text, /v1/evidence and MCP find_evidence (serve/query/schemas.ts)
 * and the explorer (web/app/advocate-picks.ts, bundled for the browser: this module imports nothing) share.
 *
 * "names no handle": written as no passage handle the advocate was shown ("P99", "P3, P5", a passage id
 * spelled out — models see only handles), the picks counted as unresolved citations (PassageHandles
 * `cite`); traces written before it list those as "no tool returned it". "picked again": traces written before 2026-12-05
 * left a repeated pick (and its note) out unlisted, the evidence one passage short of the picks written.
 */
export const DROPPED_PICK_REASONS = {
  'names no handle': 'written as no passage handle the advocate was shown (an unknown handle, a passage id spelled out)',
  'no tool returned it': 'a passage never shown to the advocate',
  'beyond k': 'picked after the advocate already had its k passages',
  'picked again': 'a passage the advocate had already picked: its first pick and note kept',
} as const;

export type DroppedPickReason = keyof typeof DROPPED_PICK_REASONS;

/** The reasons' names, for a zod enum. */
export const DROPPED_PICK_REASON_NAMES = Object.keys(DROPPED_PICK_REASONS) as [DroppedPickReason, ...DroppedPickReason[]];

/** "P99 (names no handle, ×2)": a dropped pick as the text output lists it. */
export function droppedPickText(p: { id: string; reason?: string; times?: number }): string {
  return `${p.id} (${p.reason ?? 'reason not recorded'}${p.times && p.times > 1 ? `, ×${p.times}` : ''})`;
}
