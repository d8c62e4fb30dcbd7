/**
 * The seam between the experiment runner (eval/) and agent systems (agents/<name>/).
 * A system is a function (item, ctx) → outcome; the runner owns iteration, resume, the run dir,
 * results.jsonl, traces/<id>.json, progress and provenance.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { Retriever } from '../retrieval/types.js';

export type { TokenUsage } from '../core/llm/usage.js';
import type { TokenUsage } from '../core/llm/usage.js';

export interface SystemContext {
  /** Seed for this item (derived from the run seed and the item id). */
  seed: number;
  /** LangChain tools (bm25_search, qld_search, dense_search, hybrid_search, rewrite_query...). */
  tools: StructuredToolInterface[];
  /** Retrievers by method, for offline/heuristic systems that do not go through an LLM. */
  retrievers: Partial<Record<string, Retriever>>;
  /** Chat model from the LLM factory; undefined in offline mode. */
  llm?: BaseChatModel;
  /** Fetch passage text for ids (from the index doc store). */
  getPassage(id: string): Promise<{ id: string; text: string; title?: string } | undefined>;
  /** System-specific options from the run config (k, jurors, rounds, ...). */
  options: Record<string, unknown>;
  signal?: AbortSignal;
}

/** What a system returns for one item; the runner adds id, gold, correct, timing, tokens. */
export interface SystemOutcome {
  /** Predicted label (option letter for MCQ, class label for classification) or null on failure. */
  prediction: string | null;
  /** "high" | "low" etc.; free-form per system. */
  confidence?: string;
  /** Everything needed to audit the item: hypotheses, tool calls, evidence, votes... (JSON-able). */
  trace: Record<string, unknown>;
  /** Small per-item metrics merged into results.jsonl (e.g. evidence recall flags). */
  metrics?: Record<string, number | boolean | null>;
  /** Set when the item failed (unparseable LLM output twice, ...): the run goes on. */
  error?: string;
  /**
   * Steps inside the item that failed without failing the item, by step name (e.g. {"juror vote": 1}):
   * an unparseable vote, judgement or argument is counted here, never replaced silently.
   */
  stepFailures?: Record<string, number>;
}

export type AgentSystem<Item> = (item: Item, ctx: SystemContext) => Promise<SystemOutcome>;

/** One line of results.jsonl. */
export interface ResultRecord {
  id: string;
  prediction: string | null;
  gold: string;
  /** The item's content checksum, for items whose id does not name their content (3-ply's triples; eval/provenance.ts `itemChecksum`). */
  itemChecksum?: string;
  /** The checksum of what a model is shown of the item (question, options, text as loaded; eval/provenance.ts `contentChecksum`). Absent in records written before 2026-12-01. */
  contentChecksum?: string;
  correct: boolean;
  confidence?: string;
  metrics?: Record<string, number | boolean | null>;
  tokens?: TokenUsage;
  ms: number;
  error?: string;
  /** Failed steps inside the item (see SystemOutcome.stepFailures). */
  stepFailures?: Record<string, number>;
  /** Numbers of structured replies clamped into their schema's bounds, by "<step>: <field>" (core/llm/bound-repair.ts). */
  repairs?: Record<string, number>;
  /**
   * The item's dense searches (a dense or hybrid search, the learned selector's dense similarities) where the
   * model's token limit is known, and how many it read only in part (retrieval/dense-query-cut.ts); absent when none,
   * and in records written before 2026-12-02.
   */
  denseSearches?: { searches: number; cut: number; provider: string; maxTokens: number; similarityQueries?: { embedded: number; cut: number } };
  /** Replies that named a model other than the one asked, by that name (eval/reply-models.ts); absent when none. */
  replyModels?: Record<string, number>;
  /** Replies by the system_fingerprint they carried (eval/reply-fingerprints.ts); absent when none carried one. */
  replyFingerprints?: Record<string, number>;
  /** Replies answered from the response cache, by who wrote them (eval/cache-sources.ts); absent when none was. */
  cacheSources?: Record<string, number>;
  /** Replies by the server identity (GET /models entry) they were answered under (eval/server-identities.ts); absent when none was heard. */
  serverIdentities?: Record<string, number>;
  /**
   * The digest of the item's llm/<id>.jsonl as written with this line (eval/llm-exchanges.ts
   * exchangesDigest): a replay refuses a file whose exchanges have another. Absent when the item made no
   * LLM request, and in lines written before 2026-12-03.
   */
  exchangesSha256?: string;
  /**
   * Failed attempts of this item that a retry replaced (their lines are gone from results.jsonl):
   * how many, and the tokens they spent — not in `tokens`, which is this attempt's.
   */
  replacedAttempts?: { attempts: number; tokens: TokenUsage };
}
