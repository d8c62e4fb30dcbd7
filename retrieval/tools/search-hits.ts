/**
 * Run a search tool from code and get its hits as the typed artifact (no JSON parsing in the
 * systems). The tool is invoked with a tool call, so LangChain hands back the ToolMessage with the
 * artifact; a tool without one (a plain-text tool from elsewhere) is read from its JSON text here.
 */
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { SearchArtifact } from './search-tool.js';

let calls = 0;

export async function searchHits(
  tool: StructuredToolInterface,
  input: { query: string; k?: number },
  opts: { signal?: AbortSignal } = {},
): Promise<SearchArtifact> {
  const out: unknown = await tool.invoke({ id: `code-${++calls}`, name: tool.name, args: input, type: 'tool_call' }, { signal: opts.signal });
  const msg = out as { artifact?: SearchArtifact; content?: unknown };
  if (msg && typeof msg === 'object' && msg.artifact && Array.isArray(msg.artifact.results)) return msg.artifact;
  const text = typeof out === 'string' ? out : typeof msg?.content === 'string' ? msg.content : JSON.stringify(out);
  const parsed = JSON.parse(text) as Partial<SearchArtifact>;
  return {
    method: String(parsed.method ?? tool.name),
    query: String(parsed.query ?? input.query),
    results: parsed.results ?? [],
    ...(parsed.error ? { error: parsed.error } : {}),
  };
}
