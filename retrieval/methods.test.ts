/**
 * The method registry (retrieval/methods.ts) is the one list: openRetriever's known methods, the
 * sparse methods, the methods an index offers agents and the explorer, hybrid's fusable methods,
 * the agents' search tools and `lexcase search --help` all derive from it; and the method moved
 * onto it (wink) is named, as a method, in no source file but its registry entry and its own file.
 */
import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isExempt, readSources } from '../tests/support/import-layers.js';
import { FUSABLE, METHODS, METHOD_NAMES, methodSpec, offers } from './methods.js';
import { RETRIEVAL_METHODS, SPARSE_METHODS, openRetriever } from './open.js';
import { INDEX_METHODS } from './open-index.js';
import { createRetrievalTools } from './tools/index.js';
import type { DocStore, Retriever } from './types.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** String literals and template texts of a source whose words include `name` (comments and relative module paths are not looked at). */
function stringsNaming(file: string, text: string, name: string): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const word = new RegExp(`(^|[^\\w-])${name}($|[^\\w-])`);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    // A module path ('./wink.js') names a file, not the method.
    const modulePath =
      !!n.parent &&
      (ts.isImportDeclaration(n.parent) || ts.isExportDeclaration(n.parent) || ts.isCallExpression(n.parent)) &&
      ts.isStringLiteral(n) &&
      /^\.\.?\//.test(n.text);
    if (!modulePath && (ts.isStringLiteralLike(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) && word.test(n.text))
      out.push(n.text);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

describe('retrieval method registry', () => {
  it('every method list derives from the registry', () => {
    expect(RETRIEVAL_METHODS).toEqual(METHOD_NAMES);
    expect(METHOD_NAMES).toEqual(['bm25', 'qld', 'wink', 'dense', 'hybrid', 'lancedb-fts']);
    expect(SPARSE_METHODS).toEqual(['bm25', 'qld']);
    expect(INDEX_METHODS).toEqual(['bm25', 'qld', 'dense', 'hybrid']);
    expect(FUSABLE).toEqual(['bm25', 'qld', 'dense', 'lancedb-fts']);
    expect(new Set(METHOD_NAMES).size).toBe(METHODS.length);
    // What an index offers follows each entry's build step (hybrid: when dense is built; wink: always).
    const offered = (manifest: string[]) => METHODS.filter((m) => offers(m, manifest)).map((m) => m.name);
    expect(offered(['bm25', 'qld'])).toEqual(['bm25', 'qld', 'wink']);
    expect(offered(['bm25', 'qld', 'dense', 'lancedb-fts'])).toEqual(METHOD_NAMES);
  });

  it("the agents' search tools are the registry's entries with a tool, in its order", () => {
    const fake = (method: string): Retriever => ({ method, search: async () => [] }) as unknown as Retriever;
    const retrievers = Object.fromEntries(METHOD_NAMES.map((m) => [m, fake(m)]));
    const tools = createRetrievalTools({ retrievers, docs: { get: async () => undefined } as unknown as DocStore });
    expect(tools.map((t) => t.name)).toEqual(METHODS.filter((m) => m.agents).map((m) => m.agents!.tool));
    expect(tools.map((t) => t.name)).toEqual(['bm25_search', 'qld_search', 'dense_search', 'hybrid_search']);
  });

  it('an unknown method is refused with the registry’s names', async () => {
    await expect(openRetriever(root, 'splade')).rejects.toThrow(/not a lexcase retrieval method/);
    await expect(openRetriever(root, 'splade')).rejects.toThrow(`known methods: ${METHOD_NAMES.join(', ')}`);
  });

  it('`lexcase search --help` names every method from the registry', async () => {
    const { buildProgram } = await import('../src/cli/program.js');
    const search = buildProgram().commands.find((c) => c.name() === 'search')!;
    const help = search.helpInformation({ error: false }).replace(/\s+/g, ' ');
    for (const m of METHODS) expect(help).toContain(`${m.name} (${m.summary.replace(/\s+/g, ' ')})`);
  });

  it('wink, moved onto the registry, is named as a method only by its entry and its own file', () => {
    expect(methodSpec('wink')?.buildStep).toBeNull();
    const files = readSources(root);
    const naming = [...files]
      .filter(([f]) => !isExempt(f) && !/(^|\/)test-support\//.test(f))
      .filter(([f, text]) => stringsNaming(f, text, 'wink').length > 0)
      .map(([f]) => f)
      .sort();
    expect(naming).toEqual(['retrieval/methods.ts', 'retrieval/wink.ts']);
    // The finder sees a name in strings and templates, not in comments or in longer words.
    expect(stringsNaming('x.ts', "// wink\nconst a = 'wink-bm25-text-search'; const b = `bm25 | ${x} | wink`; import('./wink.js');", 'wink')).toEqual([
      ' | wink',
    ]);
  });
});
