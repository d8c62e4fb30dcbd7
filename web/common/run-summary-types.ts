/**
 * Types shared by the explorer's server (web/server, Node) and its browser app (web/app, bundled by
 * esbuild): type-only, so it imports nothing and both tsconfigs can include it.
 */

/** What a run dir holds: a CASE/baseline run, an ACAL run (argument graphs), or another run. */
export type RunKind = 'case' | 'acal' | 'run';

/** One run's row in the runs list and the header of its page (GET /api/runs/summary, /api/run/summary). */
export interface RunSummary {
  id: string;
  kind: RunKind;
  system: string | null;
  dataset: string | null;
  mode: string | null;
  model: string | null;
  n: number;
  correct: number;
  accuracy: { estimate: number; lo: number; hi: number } | null;
  failures: number;
  tokens: number;
  date: string | null;
  hasTable: boolean;
}
