/**
 * Who wrote the replies a run got from the response cache. A cache hit is a reply an earlier run got:
 * with a local server serving one name for whichever model it was started with ("local-model",
 * "default"), a rerun after the model was swapped read as the new model's and was the old one's;
 * only a hit count said anything. The model (core/llm/chat-openai.ts) now serves an entry only when
 * what the server says about the model (its GET /models entry, core/llm/server-identity.ts) is what
 * it said when the entry was written, and marks each hit with what was said then and whether it was
 * checked now (`llmOutput.cacheEntry` in llm/<item>.jsonl). Per item they are counted by that source
 * — with the model and system_fingerprint the stored reply named — on the results.jsonl line
 * (`cacheSources`: source → replies), so resumes, merges and replays keep them; the runner's last
 * lines and report.md's Run section say them with how to ask the server again.
 */
import type { Exchange } from '../core/llm/record-replay.js';
import { countsOverResults } from './reply-models.js';
import type { ResultRecord } from './types.js';

/** One cached reply's source, as the run's record names it. */
function sourceOf(x: Exchange): string {
  const entry = x.reply?.llmOutput?.cacheEntry as { server?: unknown; checked?: unknown } | undefined;
  const meta = x.reply?.generations[0]?.message?.response_metadata;
  const named = typeof meta?.model_name === 'string' && meta.model_name ? ` named model "${meta.model_name}"` : '';
  const fp = typeof meta?.system_fingerprint === 'string' && meta.system_fingerprint ? ` (system_fingerprint ${meta.system_fingerprint})` : '';
  const reply = named || fp ? `; its reply${named}${fp}` : '';
  if (typeof entry?.server !== 'string') return `no server identity recorded (an entry of an older lexcase, or a server that listed no such model)${reply}`;
  return `GET /models listed ${entry.server} when it was written${entry.checked === true ? ', as now' : ' (not checked now: the server listed no such model, or did not answer)'}${reply}`;
}

/** The cached replies of `exchanges` by their source; undefined when none came from the cache. */
export function cacheSources(exchanges: readonly Exchange[]): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const x of exchanges) {
    if (!x.cached || !x.reply) continue;
    const s = sourceOf(x);
    out[s] = (out[s] ?? 0) + 1;
  }
  return Object.keys(out).length ? out : undefined;
}

/** A source (sourceOf) checked against what the server says now: `GET /models listed "<id>" (GET /models entry <digest>) when it was written, as now`. */
const CHECKED = /^GET \/models listed "(?:[^"\\]|\\.)*" \(GET \/models entry [0-9a-f]{12}\) when it was written, as now(?:;|$)/;

/** Of the cached replies by source, those served without a check against the server's model now (no recorded identity, or none said now). */
export function uncheckedCount(sources: readonly [string, number][]): number {
  return sources.reduce((a, [s, n]) => a + (CHECKED.test(s) ? 0 : n), 0);
}

/**
 * "3 of 3 LLM calls were answered from the response cache, not by the server at the endpoint
 * (1 of them not checked against the model the server serves now): GET /models listed … ×3 —
 * --no-cache (or another LEXCASE_CACHE_DIR) asks the server again", or '' when no call was: what a
 * command outside the runner (`lexcase evidence`, /v1/evidence, MCP find_evidence, the explorer)
 * says of its calls.
 */
export function cacheAnswersText(sources: readonly [string, number][], calls: number): string {
  const hits = sources.reduce((a, [, n]) => a + n, 0);
  if (!hits) return '';
  const unchecked = uncheckedCount(sources);
  const uncheckedText = unchecked ? ` (${unchecked.toLocaleString('en-US')} of them not checked against the model the server serves now)` : '';
  return `${hits.toLocaleString('en-US')} of ${calls.toLocaleString('en-US')} LLM calls were answered from the response cache, not by the server at the endpoint${uncheckedText}: ${sources
    .map(([s, n]) => `${s} ×${n.toLocaleString('en-US')}`)
    .join('; ')} — --no-cache (or another LEXCASE_CACHE_DIR) asks the server again`;
}

/** The run's line: cacheAnswersText, and where the run counted them; '' when no call was answered from the cache. */
export function cacheSourcesText(sources: readonly [string, number][], calls: number): string {
  const said = cacheAnswersText(sources, calls);
  return said && `${said}; counted in results.jsonl ("cacheSources") and report.md`;
}

/** The run's cached replies by source (sorted), and its LLM calls. */
export function cacheSourcesOf(results: readonly Pick<ResultRecord, 'cacheSources' | 'tokens'>[]): { sources: [string, number][]; calls: number } {
  const { counts, calls } = countsOverResults(results, (r) => r.cacheSources);
  return { sources: counts, calls };
}
