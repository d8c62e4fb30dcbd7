/**
 * How many items a run planned and whether its results hold fewer: a run killed (SIGKILL, a crash,
 * a lost machine) or interrupted before its last item has figures over the items it finished, which
 * read like a whole run unless every surface says so. The planned count is config.json's
 * `provenance.items` — the items of the selection after --limit and a shard's share (a grown run's
 * provenance describes the grown selection; a merged run's, the merged items) — so a run with
 * --limit or a shard is not partial once its own items are done.
 */

/** `planned`: config.json's provenance.items (null when the run dir records none); `partial`: fewer results than planned. */
export interface PlannedItems {
  planned: number | null;
  partial: boolean;
}

/** The planned count of a run's config.json (parsed, any shape) and whether `results` items fall short of it. */
export function plannedItems(configFile: unknown, results: number): PlannedItems {
  const prov = configFile && typeof configFile === 'object' ? (configFile as { provenance?: unknown }).provenance : undefined;
  const items = prov && typeof prov === 'object' ? (prov as { items?: unknown }).items : undefined;
  const planned = typeof items === 'number' && Number.isInteger(items) && items >= 0 ? items : null;
  return { planned, partial: planned !== null && results < planned };
}

/** "partial: 3 of 8 planned items; resume with the same command and --run-dir runs/x": the one wording (report.md, the explorer's run page). */
export function partialText(results: number, planned: number, runDir: string): string {
  return `partial: ${results} of ${planned} planned items (the run stopped before the rest); its figures are over these ${results} only. Resume it by running the same command again with --run-dir ${runDir}`;
}

/** Who is writing a run dir (its run.lock's live holder, eval/run-dir-guard.ts runWriter). */
export interface RunWriter {
  what: string;
  pid: number;
  since: string;
}

/** "in progress: 9 of 60 planned items so far (run baseline/bm25-rag, pid 23396, since …)": a run still writing its dir, not one that stopped (nothing to resume). */
export function inProgressText(results: number, planned: number, writer: RunWriter): string {
  return `in progress: ${results} of ${planned} planned items so far (${writer.what}, pid ${writer.pid}, since ${writer.since}, is still writing this run dir); its figures are over these ${results} only`;
}
