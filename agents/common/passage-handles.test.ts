import { describe, expect, it } from 'vitest';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { createSearchTool } from '../../retrieval/tools/search-tool.js';
import { ToolRecorder, withToolRecorder } from '../../retrieval/tools/tool-recorder.js';
import { PassageHandles, passageHandles, withPassageHandles } from './passage-handles.js';

describe('passage handles', () => {
  it('hands out P1, P2, … in order of first sight, stable for the same id, and maps back', () => {
    const h = new PassageHandles();
    expect([h.handle('mbe_44'), h.handle('cap-1#p3'), h.handle('mbe_44')]).toEqual(['P1', 'P2', 'P1']);
    for (const ref of ['P2', '[P2]', ' p2 ', 'P02']) expect(h.resolve(ref)).toBe('cap-1#p3');
    expect(h.idOf('P3')).toBeUndefined();
    expect(h.resolve('[made_up]')).toBe('made_up'); // not a handle: kept as written, fails citation checks
    expect(h.entries()).toEqual([
      { handle: 'P1', id: 'mbe_44' },
      { handle: 'P2', id: 'cap-1#p3' },
    ]);
  });

  it('resolves a handle in every form a model writes it alone (wrapped, punctuated, spelled out, padded), and never one that could be another handle', () => {
    const h = new PassageHandles();
    for (let i = 1; i <= 31; i++) h.handle(`doc-${i}`);
    const forms = [
      '(P3)',
      'P3.',
      'P3,',
      'P3:',
      '(P3);',
      '【P3】',
      '「P3」',
      'Passage 3',
      'passage P3',
      'Passage #3',
      'P 3',
      'P#3',
      'P03',
      '"P3"',
      '([P3]).',
      '{P3}',
      '<P3>',
    ];
    for (const ref of forms) expect([ref, h.resolve(ref)]).toEqual([ref, 'doc-3']);
    expect(h.resolve('P31')).toBe('doc-31'); // "P3" inside "P31" is P31
    expect(h.resolve('(P31)')).toBe('doc-31');
    for (const ref of ['P3, P5', 'P3 and P5', 'P3-P5', 'P3a', '3', 'Pp3', '(P3)(P4)', 'cap-1#p3', 'P32']) expect([ref, h.idOf(ref)]).toEqual([ref, undefined]);
  });

  it('an accepted reply counts each citation naming no handle shown once; a real id written out stays apart from the handle of that id (before: the handle counted too)', () => {
    const h = new PassageHandles();
    h.handle('mbe_1');
    h.handle('cap-1#p2');
    // a look at a reply not yet accepted counts nothing
    expect(h.read(['P1', 'P1, P2'])).toEqual({ ids: ['mbe_1'], unresolved: ['P1, P2'] });
    expect(h.unresolved).toBe(0);
    // one reply writes P2's real id out (never shown to it), another cites P2 by its handle
    expect(h.cite(['cap-1#p2', '(P1)', 'P1, P2'])).toEqual({ ids: ['mbe_1'], unresolved: ['cap-1#p2', 'P1, P2'] });
    expect(h.cite(['P2', '[P2]'])).toEqual({ ids: ['cap-1#p2', 'cap-1#p2'], unresolved: [] });
    expect(h.unresolved).toBe(2);
    // a later round shows the citations back: the kept text got no handle, so a later "P3" names none
    expect(h.size).toBe(2);
    expect(h.cite(['P3'])).toEqual({ ids: [], unresolved: ['P3'] });
    expect(h.unresolved).toBe(3);
  });

  it('a wrapped search tool returns handles across calls; other tools are untouched', async () => {
    const search = tool(
      async ({ query }: { query: string }) =>
        JSON.stringify({
          method: 'bm25',
          query,
          results: [
            { id: query === 'a' ? 'mbe_7' : 'fre-401#p0', score: 1, rank: 1, snippet: 's' },
            { id: 'mbe_7', score: 0.5, rank: 2, snippet: 't' },
          ],
        }),
      {
        name: 'bm25_search',
        description: 'search',
        schema: z.object({ query: z.string() }),
      },
    );
    const rewrite = tool(async () => JSON.stringify({ query: 'mbe_7 stays in free text' }), { name: 'rewrite_query', description: 'r', schema: z.object({}) });
    const h = new PassageHandles();
    const [s, r] = h.wrapTools([search, rewrite]);
    expect(s.name).toBe('bm25_search');
    const first = JSON.parse(await s.invoke({ query: 'a' }));
    const second = JSON.parse(await s.invoke({ query: 'b' }));
    expect(first.results.map((x: any) => x.id)).toEqual(['P1', 'P1']);
    expect(second.results.map((x: any) => x.id)).toEqual(['P2', 'P1']);
    expect(second).toMatchObject({ method: 'bm25', query: 'b' });
    expect(await r.invoke({})).toBe(JSON.stringify({ query: 'mbe_7 stays in free text' }));
  });

  it('a wrapped content_and_artifact search tool shows handles to the model and keeps the real ids in its artifact', async () => {
    const search = tool(
      async ({ query }: { query: string }) => {
        const artifact = {
          method: 'bm25',
          query,
          results: [
            { id: 'mbe_12', score: 2, rank: 1, snippet: 'a' },
            { id: 'cap-3#p1', score: 1, rank: 2, snippet: 'b' },
          ],
        };
        return [JSON.stringify(artifact), artifact];
      },
      { name: 'bm25_search', description: 'search', schema: z.object({ query: z.string() }), responseFormat: 'content_and_artifact' },
    );
    const h = new PassageHandles();
    const [s] = h.wrapTools([search]);
    const msg = (await s.invoke({ id: 'call-1', name: 'bm25_search', args: { query: 'q' }, type: 'tool_call' })) as unknown as {
      content: string;
      artifact: { results: { id: string }[] };
      tool_call_id: string;
    };
    expect(msg.tool_call_id).toBe('call-1');
    expect(JSON.parse(msg.content).results.map((x: any) => x.id)).toEqual(['P1', 'P2']);
    expect(msg.artifact.results.map((x) => x.id)).toEqual(['mbe_12', 'cap-3#p1']);
    expect(JSON.parse(await s.invoke({ query: 'q' })).results.map((x: any) => x.id)).toEqual(['P1', 'P2']);
  });

  it("a wrapped search tool records a call whose k its schema refuses on the item's recorder, as the tool itself does (the wrapper parses first)", async () => {
    // before: the wrapper refused k 100 before the search tool ran, so the run's tool counts (trace.runner.toolCalls) left the call out
    const passage = { id: 'mbe_12', source: 'barexam_qa', text: 'Hearsay is an out-of-court statement offered for the truth of the matter asserted.' };
    const search = createSearchTool({
      name: 'bm25_search',
      description: 'search',
      retriever: { method: 'bm25', search: async () => [{ id: passage.id, score: 2, rank: 1 }] },
      docs: { get: async (id: string) => (id === passage.id ? passage : undefined) },
    });
    const [s] = new PassageHandles().wrapTools([search]);
    const item = new ToolRecorder();
    await withToolRecorder(item, async () => {
      await expect(s.invoke({ id: 'call-1', name: 'bm25_search', args: { query: 'hearsay', k: 100 }, type: 'tool_call' })).rejects.toThrow(/expected schema/);
      await s.invoke({ id: 'call-2', name: 'bm25_search', args: { query: 'hearsay', k: 1 }, type: 'tool_call' });
    });
    expect(item.calls.map((c) => [c.input, c.ids, c.error !== undefined])).toEqual([
      [{ query: 'hearsay', k: 100 }, [], true],
      [{ query: 'hearsay', k: 1 }, ['mbe_12'], false],
    ]);
  });

  it('one map per item scope; nested scopes join it; concurrent items do not share', async () => {
    const seen = await Promise.all(
      ['x', 'y'].map((id) =>
        withPassageHandles(async (outer) => {
          await new Promise((r) => setTimeout(r, 1));
          outer.handle(`${id}-0`);
          return withPassageHandles((inner) => [inner === outer, passageHandles() === outer, inner.handle(`${id}-1`)] as const);
        }),
      ),
    );
    expect(seen).toEqual([
      [true, true, 'P2'],
      [true, true, 'P2'],
    ]);
  });
});
