/**
 * zod schemas of what a run directory holds per item: the results.jsonl line (ResultRecord) and
 * traces/<id>.json. The runner writes both through these schemas and every reader (resume,
 * `lexcase report`, the explorer) reads them back through them, so a record of the wrong shape is
 * caught where it is written, and an old or hand-edited file is a warning naming the field, never a
 * crash deep inside a report.
 *
 * Traces are per system: every trace has `id` and the runner's block; a system whose trace has
 * more structure registers a schema for it (`registerTraceSchema('case', caseTraceSchema)`), looked
 * up by the run config's `system`.
 */
import { z } from 'zod';
import { log } from '../core/log.js';

export const tokenUsageSchema = z.object({
  input: z.number(),
  output: z.number(),
  total: z.number(),
  calls: z.number(),
  cached: z.number(),
  /** Calls whose endpoint reported no usage (core/llm/usage.ts); absent when 0. */
  unreported: z.number().optional(),
  /** Calls the endpoint cut short at its token limit (finish_reason "length"); absent when 0. */
  cutShort: z.number().optional(),
  /** Calls the endpoint's content filter stopped (finish_reason "content_filter"); absent when 0. */
  filtered: z.number().optional(),
  /** Calls whose endpoint reported only total_tokens (their tokens are in total, not input/output); absent when 0. */
  totalOnly: z.number().optional(),
  /** Calls whose endpoint reported a total_tokens above prompt + completion (the excess is in total, not input/output); absent when 0. */
  totalAbove: z.number().optional(),
  /** Calls whose endpoint reported 0 (or no) tokens for one side of usage and some for the other (that side undercounted); absent when 0. */
  oneSided: z.number().optional(),
  /** Replies that carried more than one choice (a server that ignores `n`; the first was read); absent when 0. */
  multiChoice: z.number().optional(),
  /** The choices those `multiChoice` replies carried in all; absent when 0. */
  choicesCarried: z.number().optional(),
  /** Replies whose text (a forced call's content, a reasoning field, prose around a JSON object) named another answer than the one read (core/llm/text-beside-call.ts); absent when 0. */
  textOtherAnswer: z.number().optional(),
  /** Requests cut off when their item ended (recorded `abandoned`; their usage is in no total); absent when 0. */
  abandoned: z.number().optional(),
  /** Requests answered with an error after their retries (recorded with `error`; in no call count or total); absent when 0. */
  refused: z.number().optional(),
  /** Failed attempts sent again (429, 5xx, a timeout, …; recorded as an exchange's `retries`; in no call count or total); 0 included, absent only on a line an older lexcase wrote. */
  retried: z.number().optional(),
  /** Tokens of cache hits an earlier (killed) attempt of this run paid for (core/llm/usage.ts); not in total; absent when 0. */
  earlierAttempts: z.number().optional(),
  /** Of input, the tokens the endpoint said its own prompt cache served (prompt_tokens_details.cached_tokens); 0 included, absent when no reply said it. */
  promptCached: z.number().optional(),
});

export const resultRecordSchema = z.object({
  id: z.string(),
  prediction: z.string().nullable(),
  gold: z.string(),
  /** The item's content checksum, where its id does not name its content (3-ply's triples). */
  itemChecksum: z.string().optional(),
  /** The checksum of what a model is shown of the item (question, options, text as loaded; eval/provenance.ts `contentChecksum`). Absent in records written before 2026-12-01. */
  contentChecksum: z.string().optional(),
  correct: z.boolean(),
  confidence: z.string().optional(),
  metrics: z.record(z.string(), z.union([z.number(), z.boolean(), z.null()])).optional(),
  tokens: tokenUsageSchema.optional(),
  ms: z.number(),
  error: z.string().optional(),
  /** Steps that failed inside the item (an unparseable vote, judgement, argument...), by step name. */
  stepFailures: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Numbers clamped into their schema's bounds, by "<step>: <field>" (core/llm/bound-repair.ts). */
  repairs: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** The item's dense searches and how many the model read only in part (retrieval/dense-query-cut.ts). */
  denseSearches: z
    .object({
      searches: z.number().int().nonnegative(),
      cut: z.number().int().nonnegative(),
      provider: z.string(),
      maxTokens: z.number().int().positive(),
      similarityQueries: z.object({ embedded: z.number().int().nonnegative(), cut: z.number().int().nonnegative() }).optional(),
    })
    .optional(),
  /** Replies that named a model other than the one asked, by that name (eval/reply-models.ts). */
  replyModels: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Replies by the system_fingerprint they carried (eval/reply-fingerprints.ts). */
  replyFingerprints: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Replies by the server identity they were answered under (eval/server-identities.ts). */
  serverIdentities: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** Replies answered from the response cache, by who wrote them (eval/cache-sources.ts). */
  cacheSources: z.record(z.string(), z.number().int().nonnegative()).optional(),
  /** The digest of the item's llm/<id>.jsonl written with this line (eval/llm-exchanges.ts exchangesDigest); absent when the item asked no LLM, and before 2026-12-03. */
  exchangesSha256: z.string().optional(),
  /** Failed attempts a retry replaced, and the tokens they spent (not in `tokens`). */
  replacedAttempts: z.object({ attempts: z.number().int().positive(), tokens: tokenUsageSchema }).optional(),
});

export const runnerTraceSchema = z
  .object({
    prediction: z.string().nullable(),
    gold: z.string(),
    correct: z.boolean(),
    confidence: z.string().optional(),
    error: z.string().optional(),
    seed: z.number(),
    ms: z.number(),
    tokens: tokenUsageSchema,
    toolCalls: z.array(z.looseObject({ tool: z.string() })),
    stepFailures: z.record(z.string(), z.number()).optional(),
    repairs: z.record(z.string(), z.number()).optional(),
  })
  .loose();

/** What every trace has; systems add their own fields (kept as they are). */
export const baseTraceSchema = z.looseObject({ id: z.string(), runner: runnerTraceSchema });

export type TraceSchema = z.ZodType<Record<string, unknown>>;

const traceSchemas = new Map<string, { schema: TraceSchema; lexcase: boolean }>();

function putTraceSchema(system: string, schema: TraceSchema, lexcase: boolean): void {
  const before = traceSchemas.get(system);
  if (before && before.schema !== schema)
    log.warn(
      `registerTraceSchema: system "${system}" had a trace schema registered before; this registration replaces it (a system of your own needs a name of its own)`,
    );
  traceSchemas.set(system, { schema, lexcase });
}

/** Register the trace schema of a system (the run config's `system` value); replacing another one for it says so on stderr. */
export function registerTraceSchema(system: string, schema: TraceSchema): void {
  putTraceSchema(system, schema, false);
}

/**
 * Register the trace schema of one of lexcase's own systems: a run gets it only when it records that
 * a lexcase system wrote it (`provenance.lexcaseSystem`), never a system of the user's own that chose
 * the same `system` name (that one's traces are read with the base schema, or the one it registered).
 */
export function registerLexcaseTraceSchema(system: string, schema: TraceSchema): void {
  putTraceSchema(system, schema, true);
}

/**
 * The trace schema of a run's `system`. `writer`: the lexcase system that wrote (or writes) the run
 * (`provenance.lexcaseSystem`, eval/systems.ts recordedSystemSpec for a run dir) — null for a system
 * of the caller's own, which never gets a schema lexcase registered for its own system of that name;
 * undefined: not known (the name decides, as before).
 */
export function traceSchemaFor(system: unknown, writer?: string | null): TraceSchema {
  const entry = typeof system === 'string' ? traceSchemas.get(system) : undefined;
  return (entry && !(entry.lexcase && writer === null) ? entry.schema : undefined) ?? (baseTraceSchema as unknown as TraceSchema);
}

/** "field "jurors": expected array, received number" for the first issue of a failed parse. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `field "${issue.path.join('.') || '(root)'}": ${issue.message}`;
}
