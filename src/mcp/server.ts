/**
 * The lexcase MCP server (`lexcase mcp`): the query service's five operations as MCP tools with
 * zod-described inputs and structured outputs (outputSchema), and every passage as a resource
 * `lexcase://INDEX/passage/ID`. Built on the official SDK (@modelcontextprotocol/sdk), which
 * validates each call's arguments against the input schema and each result against the output
 * schema; a bad argument or a failed query is a tool result with isError (the message names the
 * field), an unknown resource a JSON-RPC error — the server keeps serving.
 *
 * One McpServer per connection (stdio: one; streamable HTTP: one per request, see ./http.ts); all
 * share one QueryService, so the indexes are opened once.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, type CallToolResult, type ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { isLexcaseError } from '../../core/errors.js';
import { log, redact } from '../../core/log.js';
import { VERSION } from '../../core/version.js';
import { passageUri, type QueryService } from '../../serve/query/query-service.js';
import {
  evidenceInput,
  evidenceOutput,
  explainInput,
  explainOutput,
  listIndexesInput,
  listIndexesOutput,
  passageInput,
  passageOutput,
  searchInput,
  searchOutput,
} from '../../serve/query/schemas.js';

export const MCP_TOOLS = ['list_indexes', 'search', 'explain', 'get_passage', 'find_evidence'] as const;

const INSTRUCTIONS =
  'Legal evidence search over lexcase indexes. Start with list_indexes (names, methods), then search ' +
  '(ranked passages with snippets), get_passage (full text) or the resource lexcase://INDEX/passage/ID, ' +
  'explain (why a passage scored: per-term scores) and find_evidence (passages for or against a hypothesis, each with a justification).';

/** A tool's error message for the client: LexcaseErrors as they are, anything else generic; secrets masked. */
function toolError(e: unknown): Error {
  if (isLexcaseError(e)) return new Error(redact(e.message));
  log.warn(`mcp: ${redact((e as Error)?.stack ?? String(e))}`);
  return new Error(`internal error: ${redact((e as Error)?.message ?? String(e))}`);
}

function result<T extends Record<string, unknown>>(out: T, links: ResourceLink[] = []): CallToolResult {
  return { structuredContent: out, content: [{ type: 'text', text: JSON.stringify(out) }, ...links] };
}

const link = (uri: string, id: string, title: string | undefined): ResourceLink => ({
  type: 'resource_link',
  uri,
  name: id,
  ...(title ? { title } : {}),
  mimeType: 'text/plain',
});

/** The MCP specification's JSON-RPC error code for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

export function createMcpServer(svc: QueryService): McpServer {
  const server = new McpServer({ name: 'lexcase', version: VERSION }, { instructions: INSTRUCTIONS, capabilities: { tools: {}, resources: {} } });
  const run = async <T extends Record<string, unknown>>(
    f: () => Promise<T> | T,
    links?: (out: T) => ResourceLink[],
    signal?: AbortSignal,
  ): Promise<CallToolResult> => {
    let out: T;
    try {
      out = await f();
    } catch (e) {
      // cancelled by the client (or its connection closed): one line, no stack; the SDK sends no reply to a cancelled call
      if (signal?.aborted) {
        log.warn('mcp: a find_evidence call was cancelled (the client cancelled it or closed the connection)');
        throw new Error('cancelled');
      }
      throw toolError(e);
    }
    return result(out, links?.(out));
  };

  server.registerTool(
    'list_indexes',
    {
      title: 'List indexes',
      description:
        "The indexes this server searches: name, corpus, passages, source names (what search's filters.sources takes), retrieval methods, which methods explain scores; and whether find_evidence can use an LLM.",
      inputSchema: listIndexesInput,
      outputSchema: listIndexesOutput,
      annotations: READ_ONLY,
    },
    async () => run(() => svc.listIndexes()),
  );

  server.registerTool(
    'search',
    {
      title: 'Search passages',
      description:
        'Rank passages of an index for a query (exact BM25 or QLD scores, or dense/hybrid when the index has them). Returns hits with id, score, title, source and a snippet; get_passage gives the full text, explain the per-term scores.',
      inputSchema: searchInput,
      outputSchema: searchOutput,
      annotations: READ_ONLY,
    },
    async (args) =>
      run(
        () => svc.search(args),
        (out) => out.hits.map((h) => link(h.uri, h.id, h.title)),
      ),
  );

  server.registerTool(
    'explain',
    {
      title: 'Explain a score',
      description:
        "Why a passage scored what it did for a query: each analysed query term's tf, df and contribution (the sum plus base is the score). With rm3 (as search's), its score under RM3 expansion: the expanded query's terms, each weighted, and their contributions.",
      inputSchema: explainInput,
      outputSchema: explainOutput,
      annotations: READ_ONLY,
    },
    async (args) => run(() => svc.explain(args)),
  );

  server.registerTool(
    'get_passage',
    {
      title: 'Get a passage',
      description: 'The full text, title and source of one passage by id.',
      inputSchema: passageInput,
      outputSchema: passageOutput,
      annotations: READ_ONLY,
    },
    async (args) => run(() => svc.getPassage(args)),
  );

  server.registerTool(
    'find_evidence',
    {
      title: 'Find evidence for a hypothesis',
      description:
        'Run one CASE advocate: the strongest passages for (stance "for") or against (stance "against") a legal hypothesis, each with a one-line justification, and the searches it ran. Offline heuristic by default; the LLM advocate when the server has an LLM configured (mode "llm" or "auto").',
      inputSchema: evidenceInput,
      outputSchema: evidenceOutput,
      annotations: { ...READ_ONLY, idempotentHint: false },
    },
    // extra.signal: aborted when the client cancels the call or the connection closes
    async (args, extra) =>
      run(
        () => svc.findEvidence(args, extra.signal),
        (out) => out.evidence.map((e) => link(e.uri, e.id, undefined)),
        extra.signal,
      ),
  );

  server.registerResource(
    'passage',
    new ResourceTemplate('lexcase://{index}/passage/{id}', { list: undefined }),
    { title: 'Passage', description: 'One passage of an index, its text as text/plain (ids percent-encoded)', mimeType: 'text/plain' },
    async (uri, vars) => {
      const index = decodeURIComponent(String(vars.index));
      const id = decodeURIComponent(String(vars.id));
      try {
        const p = await svc.getPassage({ index, id });
        return { contents: [{ uri: passageUri(p.index, p.id), mimeType: 'text/plain', text: p.text }] };
      } catch (e) {
        // a JSON-RPC error (the SDK sends an error's integer `code` and its message as they are);
        // -32002 is the MCP spec's "resource not found"
        const code = isLexcaseError(e) && (e.code === 'NOT_FOUND' || e.code === 'INVALID_INPUT') ? RESOURCE_NOT_FOUND : ErrorCode.InternalError;
        throw Object.assign(toolError(e), { code, data: { uri: uri.href } });
      }
    },
  );
  return server;
}
