/**
 * Types shared by the explorer's server (web/server, Node) and its browser app (web/app, bundled by
 * esbuild): type-only, so it imports nothing and both tsconfigs can include it.
 */

/** What a run dir holds: a CASE/baseline run, an ACAL run (argument graphs), or another run. */
export type RunKind = 'case' | 'acal' | 'run';

/** One headline figure as the server sends it (eval/headline-metrics.ts HeadlineFigure, its interval from eval/stats). */
export interface Figure {
  id: string;
  label: string;
  /** null: the figure is over no item (every item failed; its text says "– (no items)"). */
  estimate: number | null;
  /** null: no interval (a bootstrap figure below 10 items). */
  lo: number | null;
  hi: number | null;
  n: number;
  interval: 'wilson' | 'bootstrap' | 'none';
  kind: 'proportion' | 'mean' | 'statistic';
  /** 'decimal' for retrieval measures (Recall@k, MRR), 'percent' for proportions of items. */
  unit: 'percent' | 'decimal';
  percent: boolean;
  /** The interval's method as printed beside the figure: "95% Wilson", "95% bootstrap", "no interval: n < 10". */
  method: string;
  /** The figure as every surface prints it: "50.0% [15.0, 85.0]", "0.032 [0.021, 0.045]". The app prints this, computing nothing. */
  text: string;
  smallN: boolean;
  note?: string;
  /** A short marker printed beside the figure in lists (macro-F1 capped below 100%: "at most 50.0% here: no gold Yes item"); `note` says why. */
  ceiling?: string;
  /** Failed items left out of n (3-ply); absent where failures count in n as wrong. */
  failed?: number;
}

/** One compared measure as the server sends it (eval/report/compare.ts PairedMeasure): B − A. */
export interface PairedText {
  a: string;
  b: string;
  diff: string;
  interval: string;
  p: string;
  test: string;
  /** "p = 0.125 (exact McNemar)". */
  pLine: string;
}

/** One run's row in the runs list and the header of its page (GET /api/runs/summary, /api/run/summary). */
export interface RunSummary {
  id: string;
  kind: RunKind;
  /** config.json's `system` value. */
  system: string | null;
  /** The registry's display name for it (eval/systems.ts). */
  systemName: string;
  /**
   * Its items are retrieval queries, shown by their first gold rank: a run lexcase's retrieval
   * evaluation wrote, as config.json records its writer (`provenance.lexcaseSystem`, eval/systems.ts
   * recordedSystemSpec), not a run whose `system` is merely named "retrieval" (a system of the user's
   * own so named is judged and shown by its answers, as report.md and compare judge it).
   */
  retrievalItems: boolean;
  dataset: string | null;
  mode: string | null;
  model: string | null;
  method: string | null;
  k: string | null;
  n: number;
  /** Items the run planned (config.json provenance.items: after --limit and a shard's share); null when not recorded. */
  planned: number | null;
  /** Fewer results than planned (the run was killed or interrupted): the figures are over the `n` items it finished. */
  partial: boolean;
  /** A partial run that a live process is still writing (it holds the dir's run.lock): in progress, not stopped — nothing to resume. */
  inProgress: boolean;
  /** Why results.jsonl could not be read (a malformed line before the last: the RUN_INVALID message `lexcase report` stops with); null when it was read. Its figures are then over no item. */
  resultsProblem: string | null;
  /** results.jsonl ended in a truncated last line (a write a kill stopped), left out of every figure, as `lexcase report` warns. */
  droppedTail: boolean;
  /**
   * A line per resume that found config.json without a field it records now or with an older value of it (a reading such as
   * replyReading): its earlier items were made under the older lexcase's, as report.md's Run section warns (eval/run-resumes.ts).
   */
  resumeWarnings: string[];
  correct: number;
  /** The system's headline figures (the registry decides which). */
  figures: Figure[];
  smallN: boolean;
  failures: number;
  /** Tokens of the items' recorded attempts (results.jsonl `tokens`). */
  tokens: number;
  /** Tokens more, spent on failed attempts a retry replaced (results.jsonl `replacedAttempts`); 0 when none or not recorded. */
  retriedTokens: number;
  /** Requests of the run cut off when their item ended (results.jsonl `tokens.abandoned`, replaced attempts' included): in neither token figure; 0 when none. */
  cutOff: number;
  /** Requests of the run answered with an error after their retries (results.jsonl `tokens.refused`, replaced attempts' included): in no call count or token figure; 0 when none. */
  refused: number;
  /** Failed attempts of the run sent again (results.jsonl `tokens.retried`: HTTP 429/5xx, timeouts; replaced attempts' included): in no call count or token figure; 0 when none. */
  retried: number;
  /**
   * Requests sent by items under way when a Ctrl-C or SIGTERM stopped the run, or a kill its resume found (config.json `interrupts`,
   * eval/run-counts.ts runInterrupts): no results.jsonl line holds them, so they are in no token figure nor in
   * cut off, refused or retried (report.md's "requests sent by items under way at an interrupt"); 0 when none.
   */
  interrupted: number;
  /** "10 requests sent by 1 item under way at an interrupt" (eval/run-counts.ts underWayText); null when none. */
  interruptedNote: string | null;
  /** Calls answered from the response cache (results.jsonl `tokens.cached`: no tokens); 0 when none. */
  cacheHits: number;
  /** "6 cache hits (no tokens; …)" (eval/run-counts.ts cacheHitsText, with the tokens an earlier attempt of the run paid for them); null when none. */
  cacheNote: string | null;
  /** "input 12,345 (3,072 of them from the server's prompt cache)" (eval/run-counts.ts runPromptCacheText: results.jsonl `tokens.promptCached`); null when no line records it. */
  promptCacheNote: string | null;
  date: string | null;
  hasTable: boolean;
  /** The reproduction dir this run belongs to (its grid's run), else null. */
  parent: string | null;
}

/** A reproduction's provenance block, read from its own files (web/server/repro-provenance.ts). */
export interface ReproProvenance {
  recipe: string | null;
  recipeSha256: string | null;
  /** Models the grid's runs used, with the runs that used each ("none" for runs that call no LLM). */
  models: { model: string; runs: string[] }[];
  lexcaseVersions: string[];
  commits: string[];
  node: string[];
  indexes: { corpus: string | null; checksum: string; passages: number | null }[];
  /** checksums.json: file → sha256. */
  checksums: { file: string; sha256: string }[];
  createdAt: string | null;
  updatedAt: string | null;
  /** The command that makes the whole table, then one per run of the grid. */
  commands: string[];
}
