/** The shape of a run's config.json (a module of its own: the report reads it without importing the runner). */
import type { Provenance } from './provenance.js';
import type { MetricKind } from './stats/metric-kinds.js';

/** The config.json of a run. */
export interface RunConfigFile {
  seed: number;
  config: Record<string, unknown>;
  provenance: Provenance;
  /**
   * What the run's per-item metrics measure, as its system declares them (eval/stats/metric-kinds.ts:
   * a lexcase plugin's `metricKinds`, or `runExperiment`'s for a system of the user's own), so
   * report, merge and compare give a count a mean's interval without importing the system. Absent
   * when the system declares none, and in runs written before 2026-12-01 (eval/systems.ts recordedMetricKinds).
   */
  metricKinds?: Record<string, MetricKind>;
  resumes?: {
    at: string;
    gitSha: string;
    datasetChecksum: string;
    /** The items' content checksum this resume read (provenance.contentChecksum's); absent before 2026-12-01. */
    contentChecksum?: string;
    items: number;
    skipped: number;
    retried?: number;
    /** Items whose earlier attempt failed, skipped by this resume (retryFailed false / --no-retry-failed): they stay failed. */
    keptFailed?: number;
    changed?: Record<string, { from: unknown; to: unknown }>;
    /** The run grew: item-selecting fields (limit, split) changed, config.json holds the new values (eval/run-grow.ts). */
    grown?: Record<string, { from: unknown; to: unknown }>;
    /** The run grew: its provenance's item count and dataset checksum before (config.json's provenance now describes the grown run). */
    provenanceBefore?: { items: number; datasetChecksum: string };
    /** Fields the config.json being resumed did not record (written by an older lexcase), so not checked; recorded from this resume on (eval/resume-unrecorded.ts). */
    unchecked?: string[];
    /** results.jsonl ended in a truncated line (a write stopped midway: kill -9, full disk), cut off by this resume: its size and item (eval/run-dir.ts repairResults). */
    cutTail?: { bytes: number; id?: string };
    /**
     * The attempt before this resume was stopped by a signal (its `interrupts` entry, eval/run-counts.ts
     * unresumedInterrupts): the items under way then, which this resume runs again, and the requests they
     * had sent. Summed over resumes[], equal to `interrupts` but an interrupt not resumed yet. Absent
     * when that attempt was not interrupted, and in resumes written before 2026-12-01.
     */
    underWay?: { items: number; requests: number };
    /** A merged run's: the shard this resume ran (eval/reproduce/merge.ts; eval/run-resumes.ts). */
    shard?: number;
  }[];
  /**
   * The model switched its structured-output mode during the run (core/llm/structured.ts: the
   * endpoint refused the mode it started with): from which mode to which, at which item. Items
   * before it were asked in `from`, it and later ones (in that process) in `to`; llm/model.json
   * keeps the mode the run started with (a replay switches at the same recorded refusal). `model`:
   * the role of a model the system calls beside the run's model (3-ply's "Factor Distiller"); absent
   * for the run's model.
   */
  structuredOutputSwitches?: { from: string; to: string; item: string; at: string; model?: string }[];
  /**
   * The run was stopped by a signal (Ctrl-C: SIGINT, or SIGTERM) while items were under way
   * (src/cli/run-interrupt.ts): those items have no results.jsonl line (a resume runs them again), so
   * the requests they had sent (each attempt, retries too, answered or not) are in no count there;
   * recorded here so report.md counts them (eval/report/sections/tokens.ts). A run killed with no
   * handler (kill -9, out of memory, a crash) gets its entry at the next resume, from the requests kept
   * in under-way/ (eval/sent-journal.ts), with `signal` "killed".
   */
  interrupts?: {
    signal: string;
    at: string;
    items: number;
    requests: number;
    /** The tokens the replies those items got before the signal reported (in no line, so in no total); absent when none, and for a kill (no handler saw it). */
    tokens?: number;
    /** A merged run's: the shard interrupted (eval/reproduce/merge.ts). */
    shard?: number;
    /** A replay's copy of an interrupt of the recording (eval/runner.ts recordedStops): resumed there, never by a resume of the replay. */
    recording?: true;
  }[];
  /** A run `lexcase merge` joined from shards: each shard's dir, items, checksums, code and resumes (eval/reproduce/merge-config.ts). */
  mergedFrom?: ({ dir: string; shard: { index: number; count: number }; items: number } & Partial<ShardProvenance>)[];
  /** What the merge warned about (the shards ran different code). */
  mergeWarnings?: string[];
  /**
   * What a replay (`replayOf`) could not check, said on stderr when it ran: the recording's lines that
   * record no digest of their exchanges (eval/llm-exchanges.ts undigestedText). Shown in report.md's Run section.
   */
  replayWarnings?: string[];
}

/** A merged shard's own provenance (eval/reproduce/merge-config.ts shardProvenance), recorded in `mergedFrom`. */
export interface ShardProvenance {
  gitSha: string | null;
  lexcaseVersion: string | null;
  createdAt: string | null;
  resumes: NonNullable<RunConfigFile['resumes']>;
  /** This shard's values where they differ from the merged config's (shard 1's): settings that change no result, and the index path. */
  settings?: Record<string, unknown>;
}
