/**
 * The model each reply named, where it is not the model the request asked for: a proxy or router
 * (LiteLLM, OpenRouter, a gateway's fallback) that answers with another model, or a provider that
 * names the snapshot it served ("gpt-4o" asked, "gpt-4o-2024-08-06" answered). config.json records
 * the model asked; without this, a run whose replies came from another model read as that model's.
 * Read from the item's exchanges (llm/<item>.jsonl keeps the reply as sent, `response_metadata.model_name`)
 * and recorded on its results.jsonl line (`replyModels`: name → replies), so resumes, merges and
 * replays keep it; report.md's Run section and the run's last warning sum it.
 */
import type { Exchange } from '../core/llm/record-replay.js';
import type { ResultRecord } from './types.js';

/** Replies of `exchanges` that named a model other than the one asked, by that name; undefined when none did. */
export function replyModels(exchanges: readonly Exchange[]): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const x of exchanges) {
    const asked = x.request.params?.model;
    // the generation the caller read: the first (a server that ignores n = 1 may send more)
    const named = x.reply?.generations[0]?.message?.response_metadata?.model_name;
    if (typeof named !== 'string' || !named || named === asked) continue;
    out[named] = (out[named] ?? 0) + 1;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The replies of `results` that named another model, by name, and how many LLM calls they are of. */
export function replyModelsOf(results: readonly Pick<ResultRecord, 'replyModels' | 'tokens'>[]): { models: [string, number][]; calls: number } {
  const { counts, calls } = countsOverResults(results, (r) => r.replyModels);
  return { models: counts, calls };
}

/**
 * A per-result count map (`replyModels`, `replyFingerprints`) summed over `results`, sorted by name,
 * with the LLM calls of those results (the "of N LLM calls" the report quotes).
 */
export function countsOverResults<R extends Pick<ResultRecord, 'tokens'>>(
  results: readonly R[],
  counts: (r: R) => Record<string, number> | undefined,
): { counts: [string, number][]; calls: number } {
  const sum = new Map<string, number>();
  for (const r of results) for (const [k, n] of Object.entries(counts(r) ?? {})) sum.set(k, (sum.get(k) ?? 0) + n);
  const calls = results.reduce((a, r) => a + (r.tokens?.calls ?? 0), 0);
  return { counts: [...sum].sort(([a], [b]) => a.localeCompare(b, 'en')), calls };
}

/** "routed-7b (3 of 3 LLM calls)", one entry per model named; '' when none. */
export function replyModelsText(results: readonly Pick<ResultRecord, 'replyModels' | 'tokens'>[]): string {
  return modelsText(replyModelsOf(results));
}

const modelsText = ({ models, calls }: ReturnType<typeof replyModelsOf>): string => models.map(([m, n]) => `${m} (${n} of ${calls} LLM calls)`).join(', ');

/**
 * The pairing line `lexcase compare` (and the explorer's compare page) prints when the two runs'
 * replies named different models (`replyModels` on their lines): the same model name asked of both
 * runs can be answered by different models behind a proxy or router, so their figures are not of
 * one model. Undefined when both runs' replies named the same models (or none but the one asked).
 */
export function replyModelsPairingLine(
  a: readonly Pick<ResultRecord, 'replyModels' | 'tokens'>[],
  b: readonly Pick<ResultRecord, 'replyModels' | 'tokens'>[],
): string | undefined {
  const ma = replyModelsOf(a);
  const mb = replyModelsOf(b);
  const names = (m: typeof ma) => m.models.map(([x]) => x).join('\n');
  if (names(ma) === names(mb)) return undefined;
  const side = (m: typeof ma) => (m.models.length ? `named ${modelsText(m)}` : 'named only the model asked');
  return `the two runs' replies named different models — A's ${side(ma)}; B's ${side(mb)}: their figures are not of one model`;
}
