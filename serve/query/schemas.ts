/**
 * The zod schemas of the query service (serve/query/query-service.ts): every input and output of
 * `list_indexes`, `search`, `explain`, `get_passage` and `find_evidence`. One source of truth for
 * three surfaces: the library (inputs are parsed here), the MCP tools (src/mcp/: inputSchema and
 * outputSchema) and the versioned HTTP API (src/api/: request bodies, responses and the OpenAPI 3.1
 * document, produced by `z.toJSONSchema`). Descriptions are what an MCP client's model reads.
 */
import { z } from 'zod';
import { CASE_PROMPT_LIMITS } from '../../agents/common/defaults.js';
import { DROPPED_PICK_REASON_NAMES, DROPPED_PICK_REASONS } from '../../agents/case/dropped-picks.js';
import { DEFAULT_K, SEARCH_K } from '../../retrieval/default-k.js';
import { INDEX_METHODS } from '../../retrieval/open-index.js';
import { RM3_METHODS } from '../../retrieval/methods.js';
import { RM3_DEFAULTS, RM3_FB_MAX } from '../../retrieval/rm3-params.js';

/** Most hits one search returns. */
export const MAX_SEARCH_K = 100;
/** Most passages one find_evidence call returns. */
export const MAX_EVIDENCE_K = 20;
/** Characters of passage text in a hit's snippet. */
export const SNIPPET_CHARS = 400;

const indexName = z.string().min(1).max(200).optional().describe('index name, as list_indexes gives it; default: the first index the server was started with');
const method = z
  .string()
  .min(1)
  .max(40)
  .default('bm25')
  .describe(`retrieval method: ${INDEX_METHODS.join(' | ')} — one the index has (list_indexes)`);
const passageId = z.string().min(1).max(500).describe('passage id, as search or find_evidence returned it');

// ---- inputs -------------------------------------------------------------------------------------

/**
 * Every input is strict (one way, zod's `.strict()`): an unknown field (a typo like `filters.source`,
 * `kk` or `quey`) is refused naming it (parseInput in ./query-service.ts), never ignored.
 */
export const listIndexesInput = z.object({}).strict();

/**
 * Longest query the POST surfaces (MCP, /v1) take: a Bar Exam fact pattern with its question runs to
 * 2,300+ characters (the CLI takes any length), and a query is searched whole, never cut.
 */
export const MAX_QUERY_CHARS = 20_000;

/** RM3's options on search and explain: `true` (the defaults, retrieval/rm3-params.ts) or any of its parameters. */
const rm3Option = z
  .union([
    z.boolean(),
    z
      .object({
        fbDocs: z.number().int().min(1).max(RM3_FB_MAX).optional().describe(`feedback documents (default ${RM3_DEFAULTS.fbDocs})`),
        fbTerms: z.number().int().min(1).max(RM3_FB_MAX).optional().describe(`feedback terms (default ${RM3_DEFAULTS.fbTerms})`),
        originalQueryWeight: z.number().min(0).max(1).optional().describe(`weight of the original query (default ${RM3_DEFAULTS.originalQueryWeight})`),
      })
      .strict(),
  ])
  .optional();

export const searchInput = z
  .object({
    index: indexName,
    query: z
      .string()
      .trim()
      .min(1, 'the query is empty')
      .max(MAX_QUERY_CHARS)
      .describe(`free-text query (legal issue, rule, facts; up to ${MAX_QUERY_CHARS.toLocaleString('en-US')} characters)`),
    method,
    k: z.number().int().min(1).max(MAX_SEARCH_K).default(SEARCH_K).describe(`number of hits (1–${MAX_SEARCH_K})`),
    filters: z
      .object({
        sources: z
          .array(z.string().min(1).max(200))
          .min(1)
          .max(50)
          .optional()
          .describe(
            'keep only passages whose source is one of these (e.g. "fre", "barexam_qa"; list_indexes gives each index\'s sources, each hit shows its source; a name the index does not hold is an error)',
          ),
      })
      .strict()
      .optional()
      .describe(
        'restrict the ranking to matching passages: the top k among them, scored exactly as without the filter (hybrid: among the top `depth` of its fused ranking, each component list cut at `depth`, then fused; fewer hits and a note when fewer are there)',
      ),
    rm3: rm3Option.describe(
      `${RM3_METHODS.join(' / ')} only: RM3 query expansion (pseudo-relevance feedback, as Anserini's -rm3) — true for the defaults, or its parameters`,
    ),
  })
  .strict();

export const explainInput = z
  .object({
    index: indexName,
    query: searchInput.shape.query,
    method,
    id: passageId,
    rm3: rm3Option.describe(
      `${RM3_METHODS.join(' / ')} only: explain the passage's score under RM3 query expansion, as search with the same rm3 ranked it — true for the defaults, or its parameters`,
    ),
  })
  .strict();

export const passageInput = z
  .object({
    index: indexName,
    id: passageId,
  })
  .strict();

export const evidenceInput = z
  .object({
    index: indexName,
    hypothesis: z.string().trim().min(1, 'the hypothesis is empty').max(4000).describe('the claim to find evidence for (or, with stance "against", against)'),
    facts: z.string().max(20000).default('').describe('facts of the case, given to the advocate with the hypothesis (offline counter-evidence needs them)'),
    stance: z.enum(['for', 'against']).default('for').describe('"for": supporting passages; "against": counter-evidence'),
    k: z.number().int().min(1).max(MAX_EVIDENCE_K).default(DEFAULT_K).describe(`number of passages (1–${MAX_EVIDENCE_K})`),
    mode: z
      .enum(['auto', 'offline', 'llm'])
      .default('auto')
      .describe(
        '"llm": the LLM advocate (needs a server started with an LLM configured); "offline": the heuristic advocate, no LLM; "auto": llm when configured, else offline',
      ),
  })
  .strict();

export type SearchInput = z.input<typeof searchInput>;
export type ExplainInput = z.input<typeof explainInput>;
export type PassageInput = z.input<typeof passageInput>;
export type EvidenceInput = z.input<typeof evidenceInput>;

// ---- outputs ------------------------------------------------------------------------------------

const uri = z.string().describe('the passage as an MCP resource: lexcase://INDEX/passage/ID (ID percent-encoded)');

export const indexInfo = z.object({
  name: z.string().describe('index name to pass as "index"'),
  corpus: z.string().describe('corpus the index was built from'),
  passages: z.number().int().describe('number of passages'),
  sources: z.array(z.string()).describe('the source names its passages have: what filters.sources of search takes'),
  methods: z.array(z.string()).describe('retrieval methods this index offers'),
  explainable: z.array(z.string()).describe('methods whose scores explain gives per term'),
  default: z.boolean().describe('true for the index used when "index" is left out'),
});

export const listIndexesOutput = z.object({
  indexes: z.array(indexInfo),
  llm: z.boolean().describe('whether find_evidence can run the LLM advocate (mode "llm")'),
});

export const searchHit = z.object({
  rank: z.number().int().describe('1-based rank'),
  id: z.string(),
  score: z.number(),
  title: z.string().optional(),
  source: z.string().optional(),
  snippet: z.string().describe(`the passage text, cut to ${SNIPPET_CHARS} characters`),
  truncated: z.boolean().describe('true when the snippet is shorter than the passage (get_passage gives all of it)'),
  uri,
});

export const searchOutput = z.object({
  index: z.string(),
  query: z.string(),
  method: z.string(),
  k: z.number().int(),
  filters: searchInput.shape.filters.unwrap().optional(),
  hits: z.array(searchHit),
  note: z.string().optional().describe('why fewer than k hits came back (a filter keeping fewer passages in the ranking a filtered search looks at)'),
  queryCut: z
    .string()
    .optional()
    .describe(
      "the query is longer than the dense model reads (dense, or hybrid's dense component): ranked by its start only, as `lexcase search --json` says it",
    ),
  querySource: z
    .string()
    .optional()
    .describe(
      "dense, or hybrid's dense component: the query was embedded by another endpoint or model folder than the index's passage vectors (LEXCASE_EMBED_BASE_URL naming another server), so its scores mean little; as `lexcase search --json` says it",
    ),
  rm3NoFeedback: z
    .string()
    .optional()
    .describe(
      "with rm3: the expansion gained no feedback term (every term of the feedback passages is in more than 10% of the index's passages, Anserini's rule), so the hits are the base method's; as `lexcase search --json` says it",
    ),
});

export const termScore = z.object({
  term: z.string().describe('analysed query term'),
  qtf: z.number().describe("occurrences in the query (an integer); with rm3, the term's weight in the expanded query"),
  tf: z.number().int().describe('occurrences in the passage (0: unmatched)'),
  df: z.number().int().describe('passages containing the term'),
  score: z.number().describe("the term's contribution to the score"),
});

export const explainOutput = z.object({
  index: z.string(),
  query: z.string(),
  method: z.string(),
  id: z.string(),
  score: z.number().describe('the passage score: the sum of the term scores plus base'),
  base: z.number().optional().describe('score part shared by every passage (QLD length and unmatched-term mass)'),
  terms: z.array(termScore).describe('per analysed query term (with rm3: per term of the expanded query the index holds, qtf its weight)'),
  expansion: z
    .array(z.object({ term: z.string(), weight: z.number() }))
    .optional()
    .describe(
      "with rm3: the expanded query, heaviest first (as `lexcase search --rm3 --json`'s expansion); detail.rm3 gives its parameters and feedback passages",
    ),
  detail: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "method-specific notes (hybrid: fusion components; dense on an ANN index: annScore, the index's score that search gave and score is, and exactScore, the exact cosine)",
    ),
});

export const passageOutput = z.object({
  index: z.string(),
  id: z.string(),
  title: z.string().optional(),
  source: z.string().optional(),
  text: z.string(),
  uri,
});

export const evidenceItem = z.object({
  rank: z.number().int(),
  id: z.string(),
  score: z.number().describe('comparable evidence score (reciprocal-rank based)'),
  justification: z.string().describe(`the advocate's one-line reason, cut at ${CASE_PROMPT_LIMITS.advocateNoteChars} characters (…) when longer`),
  noteCutFrom: z
    .number()
    .int()
    .optional()
    .describe(`the note's length when \`justification\` is its first ${CASE_PROMPT_LIMITS.advocateNoteChars} characters, cut`),
  snippet: z.string(),
  truncated: z.boolean(),
  uri,
});

export const evidenceToolCall = z.object({
  tool: z.string(),
  query: z.string(),
  ids: z.array(z.string()).describe('passage ids the call returned'),
  step: z.number().int().describe('model step (0: offline retrieval)'),
  output: z.string().optional().describe('rewritten query text (rewrite_query)'),
  error: z.string().optional(),
  repeated: z
    .literal(true)
    .optional()
    .describe('the same tool and arguments as an earlier call of the same reply: run once, its passages not scored again (ids empty)'),
  notOffered: z.literal(true).optional().describe('named a tool the advocate was not offered (names are matched exactly): refused, never ran'),
});

export const evidenceOutput = z.object({
  index: z.string(),
  hypothesis: z.string(),
  facts: z.string(),
  stance: z.enum(['for', 'against']),
  mode: z.string().describe('"llm", or "offline heuristic, no LLM"'),
  temperature: z.number().optional().describe("mode llm: the temperature the advocate sampled at (CASE's 0.3 unless llm.temperature is set)"),
  evidence: z.array(evidenceItem),
  toolCalls: z.array(evidenceToolCall).describe('the searches the advocate ran'),
  analysis: z.string().optional().describe("the LLM advocate's analysis"),
  rejectedIds: z
    .array(z.string())
    .optional()
    .describe('ids the model picked and the advocate dropped, each once: ones naming no handle it was shown, ones no tool returned, and ones beyond k'),
  rejected: z
    .array(
      z.object({
        id: z.string().describe('the passage id; for "names no handle", the pick as the model wrote it'),
        reason: z.enum(DROPPED_PICK_REASON_NAMES),
        times: z.number().int().optional().describe('how many times the model wrote this pick, when more than once'),
      }),
    )
    .optional()
    .describe(
      `the same picks with the reason each was dropped: ${Object.entries(DROPPED_PICK_REASONS)
        .map(([reason, words]) => `"${reason}" (${words})`)
        .join(', ')}`,
    ),
  stop: z.string().describe('why the advocate stopped (final, offline, max-steps, …)'),
  tokens: z.number().int().describe('LLM tokens used (0 offline)'),
  error: z.string().optional(),
  shortfall: z
    .object({ k: z.number().int(), returned: z.number().int(), reason: z.string() })
    .optional()
    .describe('fewer passages than k came back, and why (offline: the advocate ranks only the passages its searches returned)'),
  queryCut: z
    .string()
    .optional()
    .describe(
      "some of the advocate's dense searches (dense, or hybrid's dense component) were longer than the dense model reads: ranked by their start only; how many, of how many",
    ),
  llmCalls: z.number().int().optional().describe("LLM mode: the requests the advocate's model made"),
  cacheSources: z
    .record(z.string(), z.number().int())
    .optional()
    .describe(
      "LLM mode: the replies answered from the response cache (an earlier ask's), not by the server, by who wrote them (what GET /models said then); absent when none was",
    ),
  fromCache: z.string().optional().describe('the same as a sentence: "N of M LLM calls were answered from the response cache, …"'),
  cacheUnchecked: z
    .number()
    .int()
    .optional()
    .describe(
      'of those cached replies, how many were served without being checked against the model the server serves now (an entry with no recorded server identity, written by an older lexcase, or a server that names no such model now); absent when none was',
    ),
  serverChanged: z
    .string()
    .optional()
    .describe(
      "the LLM server described the model otherwise (its GET /models entry) than when this server last asked, while this request ran: another model behind the same name? Replies cached under the other description are not served; the server's log says it too",
    ),
});

export type IndexInfo = z.output<typeof indexInfo>;
export type ListIndexesOutput = z.output<typeof listIndexesOutput>;
export type SearchOutput = z.output<typeof searchOutput>;
export type ExplainOutput = z.output<typeof explainOutput>;
export type PassageOutput = z.output<typeof passageOutput>;
export type EvidenceOutput = z.output<typeof evidenceOutput>;
