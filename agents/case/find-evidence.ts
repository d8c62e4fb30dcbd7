/**
 * findEvidence: the everyday use of an Advocate — "what in this corpus supports (or, with
 * `against`, undermines) this hypothesis?". One advocate runs: with a chat model (`llm`), the LLM
 * tool-calling advocate — its tools are `tools` when given, else the search tools (and
 * rewrite_query) made from the index's or the given `retrievers`, as `lexcase evidence` makes them;
 * a model with neither is refused — and without one the offline heuristic (labelled "offline
 * heuristic, no LLM"). Returns the strongest passages with scores, one-line justifications and the
 * tool calls made, and (LLM mode) how many of its model's calls were answered from the response cache
 * and who wrote those replies (`cacheSources`, `fromCache`: eval/cache-sources.ts, as a run counts
 * them) — before, a second ask of the same question was the first one's reply with no trace.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { DocStore, Retriever } from '../../retrieval/types.js';
import type { createRetrievalTools } from '../../retrieval/tools/index.js';
import { errors } from '../../core/errors.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { OFFLINE_DEPTH, OFFLINE_LABEL, runOfflineAdvocate } from './advocate-offline.js';
import { openCaseIndex } from '../../retrieval/open-index.js';
import type { EvidenceItem, RejectedPick, ToolCallRecord } from './types.js';
import { DEFAULT_K } from '../../retrieval/default-k.js';
import { countingDenseSearches, searchesCutNote } from '../../retrieval/dense-query-cut.js';
import { currentExchangeLog, ExchangeLog, withExchangeLog } from '../../core/llm/record-replay.js';
import { cacheAnswersText, cacheSources, uncheckedCount } from '../../eval/cache-sources.js';

export interface FindEvidenceOptions {
  hypothesis: string;
  /** Index dir: opens its retrievers, doc store and (with an llm) retrieval tools, unless given below. */
  index?: string;
  /** Facts / question context for the advocate (may be empty). */
  facts?: string;
  against?: boolean;
  k?: number;
  /** Offline: retrievers to fuse. LLM: the search tools are made from them unless `tools` are given. */
  retrievers?: Partial<Record<string, Retriever>>;
  /** The passage texts (the evidence's, and the snippets of the search tools made from `retrievers`). */
  getPassage?: (id: string) => Promise<{ id: string; text: string } | undefined>;
  /** LLM mode: the chat model and its tools (default: made from `retrievers` or `index` with retrieval/tools createRetrievalTools). */
  llm?: BaseChatModel;
  tools?: StructuredToolInterface[];
  /**
   * Restrict to these tools / methods (bm25, qld, dense, hybrid, rewrite). Each must be one the index (or `retrievers`,
   * `tools`) has: one it lacks is refused. Offline, rewrite is skipped with a warning (it needs an LLM).
   */
  use?: string[];
  maxSteps?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface EvidenceResult {
  hypothesis: string;
  facts: string;
  stance: 'for' | 'against';
  mode: 'llm' | typeof OFFLINE_LABEL;
  evidence: EvidenceItem[];
  toolCalls: ToolCallRecord[];
  analysis?: string;
  rejectedIds?: string[];
  /** The same picks with the reason each was dropped (DROPPED_PICK_REASONS: "names no handle", "no tool returned it", "beyond k"; LLM mode). */
  rejected?: RejectedPick[];
  stop: string;
  tokens: number;
  error?: string;
  /** The advocate's final reply, cut, when it had no parseable selection and no tool returned a passage. */
  raw?: string;
  /** LLM mode: the temperature the advocate's model sampled at (absent offline, or for a model that holds none). */
  temperature?: number;
  /** Offline: fewer passages than `k` were returned, and why. */
  shortfall?: { k: number; returned: number; reason: string };
  /**
   * Some of the advocate's dense searches (dense, or hybrid's dense component) were longer than the
   * dense model reads, and were ranked by their start only: how many, of how many (searchesCutNote).
   */
  queryCut?: string;
  /** LLM mode: the requests the advocate's model made (answered by the server or from the response cache, or failed); absent for a model that records none (not lexcase's). */
  llmCalls?: number;
  /** LLM mode: the replies answered from the response cache, by who wrote them (eval/cache-sources.ts, as results.jsonl counts them); absent when none was. */
  cacheSources?: Record<string, number>;
  /** The same as a sentence: "N of M LLM calls were answered from the response cache, …" (absent when none was). */
  fromCache?: string;
  /**
   * Of those cached replies, how many were served without a check against the model the server serves
   * now: an entry with no recorded server identity (an older lexcase's), or a server that names no such
   * model now (the sentence says it too); absent when none was.
   */
  cacheUnchecked?: number;
  /**
   * A long-running server's evidence request (serve/query/index-queries.ts evidenceFor): the LLM server
   * described the model otherwise than when the process last asked, while this request ran (its
   * GET /models entry changed: another model behind the same name?), as the server's log says it.
   */
  serverChanged?: string;
}

/** Every option findEvidence reads (a Record over the interface's keys: one added there must be added here). */
const OPTION_KEYS: Record<keyof FindEvidenceOptions, true> = {
  hypothesis: true,
  index: true,
  facts: true,
  against: true,
  k: true,
  retrievers: true,
  getPassage: true,
  llm: true,
  tools: true,
  use: true,
  maxSteps: true,
  maxTokens: true,
  signal: true,
};
const OPTION_NAMES = Object.keys(OPTION_KEYS);

/** Other APIs' names for findEvidence's options, too far from them for the spelling match to find. */
const OPTION_ALIASES: Record<string, string> = {
  stance: 'against', // MCP / /v1 take `against: true`; stance: 'against' is the result's field
  topK: 'k',
  top_k: 'k',
  methods: 'use',
  method: 'use',
};

/**
 * An option findEvidence does not read is refused, naming each with the closest option: before,
 * { stance: 'against' } returned supporting evidence, { topK: 3 } 5 passages, { methods: ['qld'] } bm25's.
 */
function refuseUnknownOptions(opts: object): void {
  const unknown = Object.keys(opts).filter((key) => !Object.hasOwn(OPTION_KEYS, key));
  if (!unknown.length) return;
  const near = (key: string) => {
    const alias = OPTION_ALIASES[key];
    const hint = alias ? `did you mean "${alias}"? ` : didYouMean(key, OPTION_NAMES);
    return hint ? ` (${hint.trim()}${alias === 'against' ? ' against: true finds counter-evidence' : ''})` : '';
  };
  throw errors.invalidInput(
    `option${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `"${key}"`).join(', ')}`,
    `findEvidence takes no such option: ${unknown.map((key) => `"${key}"${near(key)}`).join(', ')}; the options are ${OPTION_NAMES.join(', ')}`,
  );
}

export async function findEvidence(opts: FindEvidenceOptions): Promise<EvidenceResult> {
  if (opts && typeof opts === 'object') refuseUnknownOptions(opts);
  // k's default, once for this route: the advocate and the search tools made here get this k
  const k = opts.k ?? DEFAULT_K;
  if (!Number.isInteger(k) || k < 1) throw errors.invalidInput('k', `must be a positive integer, got ${opts.k}`);
  // a model from createChatModel(loadConfig().llm) with no sampling set runs at run case's, as `lexcase evidence` does
  if (opts.llm) opts = { ...opts, llm: (await import('./evidence-sampling.js')).atEvidenceSampling(opts.llm) };
  if (!opts.index || opts.retrievers) return findEvidenceWith(opts, k);
  const idx = await openCaseIndex(opts.index);
  try {
    return await findEvidenceWith({ ...opts, retrievers: idx.retrievers, getPassage: opts.getPassage ?? idx.getPassage }, k, idx.docs);
  } finally {
    await idx.docs.close?.();
  }
}

/** `docs`: the index's doc store, for the snippets of the search tools made here (else `o.getPassage`). */
async function findEvidenceWith(o: FindEvidenceOptions, k: number, docs?: Pick<DocStore, 'get'>): Promise<EvidenceResult> {
  const hypothesisText = o.hypothesis.trim();
  if (!hypothesisText) throw errors.invalidInput('hypothesis', 'must not be empty');
  const facts = (o.facts ?? '').trim();
  const stance = o.against ? 'against' : 'for';
  const hypothesis = { key: 'H', text: hypothesisText, letter: null };
  // the LLM advocate and its tools (LangChain) only with a model: `lexcase evidence --offline` starts without them
  const llmCase = o.llm ? await import('./llm-case.js') : undefined;
  const temperature = o.llm ? (await import('../../core/llm/factory.js')).modelTemperature(o.llm) : undefined;
  // the model's requests, recorded (core/llm/record-replay.ts) to say which were answered from the response cache; inside
  // a runner item, the item's own log (this call's part of it)
  const outer = o.llm ? currentExchangeLog() : undefined;
  const xlog = o.llm ? (outer ?? new ExchangeLog('evidence')) : undefined;
  const firstCall = xlog?.recorded.length ?? 0;
  const advocate = () =>
    llmCase
      ? llmCase.runAdvocate({
          llm: o.llm!,
          tools: llmCase.selectTools(o.tools ?? advocateTools(llmCase.createRetrievalTools, o, k, docs), o.use),
          facts,
          hypothesis,
          k,
          stance,
          maxSteps: o.maxSteps,
          maxTokens: o.maxTokens,
          getPassage: o.getPassage,
          signal: o.signal,
        })
      : runOfflineAdvocate({
          retrievers: o.retrievers ?? {},
          // each a method the index has (a name it lacks is refused); rewrite is skipped with a warning (advocate-offline.ts)
          methods: o.use,
          facts,
          hypothesis,
          k,
          stance,
          getPassage: o.getPassage,
        });
  const { value: r, count: dense } = await countingDenseSearches(() => (xlog && !outer ? withExchangeLog(xlog, advocate) : advocate()));
  const queryCut = searchesCutNote(dense);
  const calls = xlog?.recorded.slice(firstCall).filter((x) => !x.unsent);
  const fromCache = calls && cacheSources(calls);
  const sources = fromCache && Object.entries(fromCache).sort(([a], [b]) => a.localeCompare(b, 'en'));
  const fromCacheText = sources && cacheAnswersText(sources, calls.length);
  const unchecked = sources ? uncheckedCount(sources) : 0;
  return {
    hypothesis: hypothesisText,
    facts,
    stance,
    mode: o.llm ? 'llm' : OFFLINE_LABEL,
    ...(temperature !== undefined ? { temperature } : {}),
    evidence: r.evidence,
    toolCalls: r.toolCalls,
    ...(r.analysis ? { analysis: r.analysis } : {}),
    ...(r.rejectedIds.length ? { rejectedIds: r.rejectedIds } : {}),
    ...(r.rejected?.length ? { rejected: r.rejected } : {}),
    stop: r.stop,
    tokens: r.tokens,
    ...(r.error ? { error: r.error } : {}),
    ...(r.raw !== undefined ? { raw: r.raw } : {}),
    ...(!o.llm && r.evidence.length < k ? { shortfall: offlineShortfall(k, r.evidence.length, r.toolCalls.length) } : {}),
    ...(queryCut ? { queryCut } : {}),
    ...(calls?.length ? { llmCalls: calls.length } : {}),
    ...(fromCache ? { cacheSources: fromCache, fromCache: fromCacheText } : {}),
    ...(unchecked ? { cacheUnchecked: unchecked } : {}),
  };
}

/** Why the offline advocate returned fewer than k passages: it ranks only what its searches fetched. */
function offlineShortfall(k: number, returned: number, searches: number): NonNullable<EvidenceResult['shortfall']> {
  return {
    k,
    returned,
    reason: `${returned} of the ${k} passages asked for: the offline advocate ranks only the passages its ${searches} searches returned (the top ${OFFLINE_DEPTH} hits of each), and they held ${returned}`,
  };
}

/** The LLM advocate's default tools: a search tool per retriever and rewrite_query, as `lexcase evidence` gives it. */
function advocateTools(
  create: typeof createRetrievalTools,
  o: FindEvidenceOptions,
  k: number,
  docs: Pick<DocStore, 'get'> | undefined,
): StructuredToolInterface[] {
  const retrievers = o.retrievers ?? {};
  if (!Object.values(retrievers).some(Boolean))
    throw errors.usage(
      'findEvidence: the LLM advocate has nothing to search with',
      "give `index` (an index dir), `retrievers` with `getPassage`, or the advocate's `tools`",
    );
  const get = docs?.get.bind(docs) ?? o.getPassage;
  if (!get)
    throw errors.usage(
      "findEvidence: the LLM advocate's search tools need the passage texts for their snippets",
      "give `getPassage` with `retrievers` (or `index`, or the advocate's `tools`)",
    );
  return create({ retrievers, docs: { get }, llm: o.llm, defaultK: k });
}
