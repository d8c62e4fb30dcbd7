/**
 * One retrieval method as a LangChain tool: input {query, k} and nothing else; `content_and_artifact` output — the
 * JSON text {method, query, results: [{id, score, rank, snippet}]} the model reads, and the same
 * hits (with the doc store's title, where it has one) as a typed SearchArtifact for the code
 * (ToolMessage.artifact; `searchHits()` invokes a tool and returns it), so no system parses the text
 * back. The text shows a passage as its id (a handle once wrapped) and text only: metadata that
 * some passages have and others lack (a title: every legal_corpus distractor has a case name, no
 * Bar Exam gold passage has one) would tell the kinds apart. Every call is recorded (tool, input,
 * ids, ms), one whose input the schema refuses too (./refused-input.ts). A failing retriever
 * returns {error, results: []} so an agent loop can go on.
 * The hits are the top k as `lexcase search -k` prints them (retrieval/top-k.ts printedRun:
 * trec_eval's order, ties by id descending, a tie at the cut searched past), so an agent sees the
 * passages the CLI shows for its query, not the retriever's index order at a tie.
 * Both carry real passage ids; lexcase's agents hand the text to a model only through
 * agents/common/passage-handles.ts (`wrapTools`), which shows neutral handles (P1..) instead and
 * keeps the artifact (real ids) for the code.
 */
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';
import { errors } from '../../core/errors.js';
import type { DocStore, Retriever } from '../types.js';
import { makeSnippet } from './snippet.js';
import { recordToolCall, type ToolRecorder } from './tool-recorder.js';
import { DEFAULT_K } from '../default-k.js';
import { printedRun } from '../top-k.js';
import { recordRefusedInput } from './refused-input.js';

/** The most passages one search of the tool returns: its input's `k` is 1–50 (a model asking for more is refused by the schema). */
export const MAX_SEARCH_TOOL_K = 50;

/**
 * A system that searches through the tool with its own `k` (MAD's evidence pool, ACAL's evidence)
 * checks it once, before any item: a k over MAX_SEARCH_TOOL_K failed every item with LangChain's
 * "Received tool input did not match expected schema", naming neither k nor the limit.
 */
export function checkSearchToolK(k: number, field = '-k'): void {
  if (k > MAX_SEARCH_TOOL_K)
    throw errors.invalidInput(
      field,
      `${k} passages a search, but the retrieval tools return at most ${MAX_SEARCH_TOOL_K} passages a search: give ${MAX_SEARCH_TOOL_K} or fewer`,
    );
}

/**
 * The tool's input, in the strict subset a model is offered (both fields required, k may be null,
 * no other field: the sent schema's additionalProperties false); a caller may leave k out. An empty
 * query returns no passages. A field besides query and k (top_k, K, method) is refused — the call
 * recorded and the model told, as for k 100 — not dropped: { query, top_k: 20 } searched the default k.
 */
export const searchInputSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && !('k' in v) ? { ...v, k: null } : v),
  z
    .object({
      query: z.string().describe('Search query: keywords, or a statement of the legal issue and rule you need'),
      k: z.number().int().min(1).max(MAX_SEARCH_TOOL_K).nullable().describe(`Number of passages to return (1-${MAX_SEARCH_TOOL_K}; null: the default)`),
    })
    .strict(),
);

export type SearchInput = { query: string; k?: number | null };

export interface SearchResult {
  id: string;
  score: number;
  rank: number;
  title?: string;
  snippet: string;
}

/** What a search tool returns to the code next to the text the model reads. */
export interface SearchArtifact {
  method: string;
  query: string;
  results: SearchResult[];
  error?: string;
}

export interface SearchToolOptions {
  name: string;
  description: string;
  retriever: Retriever;
  /** Where the hits' titles and texts (snippets) are read. */
  docs: Pick<DocStore, 'get'>;
  recorder?: ToolRecorder;
  snippetChars?: number;
  defaultK?: number;
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

export function createSearchTool(o: SearchToolOptions): StructuredToolInterface {
  const snippetChars = o.snippetChars ?? 600;
  const defaultK = o.defaultK ?? DEFAULT_K;
  const searchTool = tool(
    async (input: SearchInput) => {
      const t0 = performance.now();
      const k = input.k ?? defaultK;
      const query = input.query.trim();
      try {
        // the top k as `lexcase search -k` prints it (trec_eval's order, a tie at the cut searched past), not the retriever's index order
        const hits = query ? await printedRun(o.retriever, query, k) : [];
        const results: SearchResult[] = [];
        for (const h of hits) {
          const doc = await o.docs.get(h.id);
          results.push({
            id: h.id,
            score: round(h.score),
            rank: h.rank,
            ...(doc?.title ? { title: doc.title } : {}),
            snippet: doc ? makeSnippet(doc.text, query, snippetChars) : '',
          });
        }
        recordToolCall({ tool: o.name, input: { query, k }, ids: results.map((r) => r.id), ms: Math.round(performance.now() - t0) }, o.recorder);
        const artifact: SearchArtifact = { method: String(o.retriever.method), query, results };
        const shown = results.map(({ id, score, rank, snippet }) => ({ id, score, rank, snippet }));
        return [JSON.stringify({ method: artifact.method, query, results: shown }), artifact];
      } catch (e) {
        const error = (e as Error).message ?? String(e);
        recordToolCall({ tool: o.name, input: { query, k }, ids: [], ms: Math.round(performance.now() - t0), error }, o.recorder);
        const artifact: SearchArtifact = { method: String(o.retriever.method), query, error, results: [] };
        return [JSON.stringify({ method: artifact.method, query, error, results: [] }), artifact];
      }
    },
    { name: o.name, description: o.description, schema: searchInputSchema, responseFormat: 'content_and_artifact' },
  ) as unknown as StructuredToolInterface;
  // a call its schema refuses (k 100, "10", 10.5) is recorded too, as a failed search
  return recordRefusedInput(searchTool, o.recorder);
}
