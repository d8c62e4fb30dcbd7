/**
 * The trace views this app has, one per trace kind of the system list (eval/systems.ts
 * `TRACE_KINDS`; the browser bundle does not import eval/ — the server sends the list in /api/info).
 * web/trace-kinds.test.ts fails when a kind there has no view here.
 */
export const TRACE_VIEW_KINDS = ['case', 'acal', 'mad', 'emar', 'threeply', 'retrieval', 'baseline', 'other'] as const;
export type TraceKind = (typeof TRACE_VIEW_KINDS)[number];
