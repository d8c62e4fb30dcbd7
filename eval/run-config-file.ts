/** The shape of a run's config.json (a module of its own: the report reads it without importing the runner). */
import type { Provenance } from './provenance.js';

/** The config.json of a run. */
export interface RunConfigFile {
  seed: number;
  config: Record<string, unknown>;
  provenance: Provenance;
  resumes?: {
    at: string;
    gitSha: string;
    datasetChecksum: string;
    items: number;
    skipped: number;
    retried?: number;
    changed?: Record<string, { from: unknown; to: unknown }>;
    /** The run grew: item-selecting fields (limit, split) changed, config.json holds the new values (eval/run-grow.ts). */
    grown?: Record<string, { from: unknown; to: unknown }>;
  }[];
}
