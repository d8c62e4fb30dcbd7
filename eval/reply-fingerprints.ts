/**
 * The `system_fingerprint` each reply carried (OpenAI and some compatible servers: the backend
 * configuration that served it). A change during a run means the replies came from differently
 * configured backends, and a seed no longer reproduces them; before, it was only in llm/<item>.jsonl.
 * Read from the item's exchanges (the reply as sent, `response_metadata.system_fingerprint` of the
 * choice read) and recorded on its results.jsonl line (`replyFingerprints`: fingerprint → replies),
 * so resumes, merges and replays keep it; report.md's Run section says so when the run's replies
 * carried more than one, as it does for replies that named another model (reply-models.ts).
 */
import type { Exchange } from '../core/llm/record-replay.js';
import { countsOverResults } from './reply-models.js';
import type { ResultRecord } from './types.js';

/** Replies of `exchanges` by the system_fingerprint they carried; undefined when none carried one. */
export function replyFingerprints(exchanges: readonly Exchange[]): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const x of exchanges) {
    // the generation the caller read: the first (a server that ignores n = 1 may send more)
    const fp = x.reply?.generations[0]?.message?.response_metadata?.system_fingerprint;
    if (typeof fp !== 'string' || !fp) continue;
    out[fp] = (out[fp] ?? 0) + 1;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The run's replies by system_fingerprint (sorted by name), and how many LLM calls they are of. */
export function replyFingerprintsOf(results: readonly Pick<ResultRecord, 'replyFingerprints' | 'tokens'>[]): {
  fingerprints: [string, number][];
  calls: number;
} {
  const { counts, calls } = countsOverResults(results, (r) => r.replyFingerprints);
  return { fingerprints: counts, calls };
}

/** "fp_a1 (2 of 3 LLM calls), fp_b2 (1 of 3 LLM calls)" when the run's replies carried more than one system_fingerprint; '' otherwise. */
export function replyFingerprintsText(results: readonly Pick<ResultRecord, 'replyFingerprints' | 'tokens'>[]): string {
  const { fingerprints, calls } = replyFingerprintsOf(results);
  if (fingerprints.length < 2) return '';
  return fingerprints.map(([f, n]) => `${f} (${n} of ${calls} LLM calls)`).join(', ');
}
