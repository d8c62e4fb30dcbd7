/**
 * LangChain habits on lexcase (issue 41 item 5): LexcaseRetriever.fromDocuments / fromTexts build an
 * index from Documents, their metadata comes back (source, doc_id, title, every other JSON key), and
 * a metadata filter returns the top k among the passages it keeps — the same passages, scores and
 * order as filtering the whole unfiltered ranking by hand. Data: the bundled legal_corpus (Federal
 * Rules of Evidence, the Constitution and four Arkansas opinions), as a loader + splitter would hand
 * it over.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Document } from '@langchain/core/documents';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import { bundledLines, LEGAL_CORPUS_PASSAGES } from '../tests/support/bundled-data.js';
import { tempDir } from '../indexer/build-test-helpers.js';
import { openDocStore } from '../indexer/docstore.js';
import { verifyChecksums } from '../indexer/integrity.js';
import { readManifest } from '../indexer/manifest.js';
import { LexcaseRetriever } from './langchain-retriever.js';
import { closeSparseIndexes, openRetriever } from './open.js';

interface Row {
  id: string;
  doc_id: string;
  title: string;
  text: string;
  source: string;
}
const all = bundledLines(LEGAL_CORPUS_PASSAGES)
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Row);
const opinions = [...new Set(all.filter((r) => r.source === 'cap_arkansas_sample').map((r) => r.doc_id))].slice(0, 4);
const rows = all.filter((r) => r.source === 'fre' || r.source === 'us_constitution' || opinions.includes(r.doc_id));
const kindOf = (r: Row) => (r.source === 'fre' ? 'rule' : r.source === 'us_constitution' ? 'constitution' : 'opinion');
/** What a LangChain loader + text splitter hands over: the splitter's `loc`, the loader's `source`, the user's own keys. */
const documents = rows.map(
  (r, i) =>
    new Document({
      id: r.id,
      pageContent: r.text,
      metadata: { source: r.source, doc_id: r.doc_id, title: r.title, kind: kindOf(r), loc: { lines: { from: i % 7, to: (i % 7) + 3 } } },
    }),
);
const byId = new Map(rows.map((r, i) => [r.id, { r, i }]));
const tmp = tempDir('lexcase-lc-docs-');
const out = join(tmp.dir, 'rules-and-opinions');
const QUERY = 'statement offered to prove the truth of the matter asserted';

/** The unfiltered ranking of the whole index, filtered by hand: what a filter must return. */
async function byHand(keep: (r: Row, i: number) => boolean, k: number) {
  const hits = await (await openRetriever(out, 'bm25')).search(QUERY, { k: rows.length });
  const kept = hits.filter((h) => keep(byId.get(h.id)!.r, byId.get(h.id)!.i)).slice(0, k);
  return { kept, unfilteredRank: kept.map((h) => h.rank) };
}

let retriever: LexcaseRetriever;
beforeAll(async () => {
  retriever = await LexcaseRetriever.fromDocuments(documents, { out, methods: ['bm25'], workers: 0, k: 5 });
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

describe('LexcaseRetriever.fromDocuments', () => {
  it('builds an index from Documents and returns them with their metadata: source, doc_id, title and every other key', async () => {
    expect(retriever).toBeInstanceOf(LexcaseRetriever);
    const docs = await retriever.invoke(QUERY);
    const want = await (await openRetriever(out, 'bm25')).search(QUERY, { k: 5 });
    expect(docs.map((d) => d.id)).toEqual(want.map((h) => h.id));
    for (const [n, d] of docs.entries()) {
      const { r, i } = byId.get(d.id!)!;
      expect(d.pageContent).toBe(r.text);
      expect(d.metadata).toEqual({
        id: r.id,
        source: r.source,
        doc_id: r.doc_id,
        title: r.title,
        kind: kindOf(r),
        loc: { lines: { from: i % 7, to: (i % 7) + 3 } },
        score: want[n].score,
        rank: n + 1,
        method: 'bm25',
      });
    }
    expect(docs[0].metadata.source).toBe('fre'); // the hearsay rule, above the opinions
  });

  it('keeps the kept keys in a checksummed doc-store column: index verify passes, the manifest records it, entries() yields it', async () => {
    const m = await readManifest(out);
    expect(m.docstore?.meta).toBe(true);
    expect(Object.keys(m.checksums)).toEqual(expect.arrayContaining(['docs/meta.bin', 'docs/meta.off']));
    expect((await verifyChecksums(out, m)).problems).toEqual([]);
    const store = await openDocStore(out);
    try {
      const first = (await store.entries()[Symbol.asyncIterator]().next()).value!;
      expect(first).toMatchObject({
        id: rows[0].id,
        docId: rows[0].doc_id,
        source: rows[0].source,
        meta: { kind: kindOf(rows[0]), loc: { lines: { from: 0, to: 3 } } },
      });
    } finally {
      await store.close();
    }
  });

  it('fromTexts: one metadata object for all texts or one per text; ids doc-1…; a count mismatch is refused', async () => {
    const texts = rows.filter((r) => r.source === 'fre').map((r) => r.text);
    const shared = await LexcaseRetriever.fromTexts(texts, { source: 'fre', edition: 2024 }, { out: join(tmp.dir, 'texts-shared'), workers: 0, k: 2 });
    const [top] = await shared.invoke('hearsay');
    expect(top.id).toMatch(/^doc-\d+$/);
    expect(top.pageContent).toBe(texts[Number(top.id!.slice(4)) - 1]);
    expect(top.metadata).toMatchObject({ source: 'fre', edition: 2024 });
    const each = await LexcaseRetriever.fromTexts(
      texts,
      texts.map((_, i) => ({ n: i })),
      { out: join(tmp.dir, 'texts-each'), workers: 0, k: 1 },
    );
    const [one] = await each.invoke('hearsay');
    expect(one.metadata.n).toBe(Number(one.id!.slice(4)) - 1);
    expect(one.metadata.source).toBe('texts-each'); // no source: the corpus name, as for buildIndex
    await expect(LexcaseRetriever.fromTexts(texts, [{}], { out: join(tmp.dir, 'texts-bad') })).rejects.toThrow(new RegExp(`expected ${texts.length} objects`));
    expect(existsSync(join(tmp.dir, 'texts-bad'))).toBe(false);
  });

  it('refuses a Document whose metadata.source is not a string, and a filter that is neither an object nor a function', async () => {
    await expect(
      LexcaseRetriever.fromDocuments([new Document({ pageContent: 'x', metadata: { source: 7 } })], { out: join(tmp.dir, 'bad-source') }),
    ).rejects.toThrow(/documents\[0\]\.metadata\.source.*string/);
    expect(() => new LexcaseRetriever({ index: out, filter: ['fre'] as unknown as Record<string, unknown> })).toThrow(/filter/);
  });
});

describe('LexcaseRetriever metadata filter', () => {
  it.each([
    ['a kept key', { kind: 'opinion' }, (r: Row) => kindOf(r) === 'opinion'],
    ['doc_id, any of two', { doc_id: [opinions[1], opinions[2]] }, (r: Row) => r.doc_id === opinions[1] || r.doc_id === opinions[2]],
    ['source only (the in-memory source column)', { source: 'us_constitution' }, (r: Row) => r.source === 'us_constitution'],
    ['a nested kept value, deep-equal', { loc: { lines: { from: 2, to: 5 } }, kind: 'rule' }, (r: Row, i: number) => i % 7 === 2 && kindOf(r) === 'rule'],
  ] as const)('%s: the top k the filter keeps, as filtering the whole ranking by hand', async (_name, filter, keep) => {
    const docs = await new LexcaseRetriever({ index: out, k: 5, filter }).invoke(QUERY);
    const { kept } = await byHand(keep, 5);
    expect(kept.length).toBeGreaterThan(0);
    expect(docs.map((d) => [d.id, d.metadata.score])).toEqual(kept.map((h) => [h.id, h.score]));
    expect(docs.map((d) => d.metadata.rank)).toEqual(kept.map((_, n) => n + 1));
  });

  it('a filter whose passages rank deep in the unfiltered ranking still finds them (the search deepens)', async () => {
    const docs = await new LexcaseRetriever({ index: out, k: 3, filter: { doc_id: opinions[3] } }).invoke(QUERY);
    const { kept, unfilteredRank } = await byHand((r) => r.doc_id === opinions[3], 3);
    expect(docs.map((d) => d.id)).toEqual(kept.map((h) => h.id));
    expect(Math.max(...unfilteredRank)).toBeGreaterThan(4 * 3);
  });

  it('a function filter gets the metadata (kept keys included); a filter that keeps nothing returns no Documents, and says so', async () => {
    const fn = new LexcaseRetriever({ index: out, k: 4, filter: (md) => md.kind === 'rule' && (md.loc as { lines: { from: number } }).lines.from < 2 });
    const { kept } = await byHand((r, i) => kindOf(r) === 'rule' && i % 7 < 2, 4);
    expect((await fn.invoke(QUERY)).map((d) => d.id)).toEqual(kept.map((h) => h.id));
    const matching = (await openRetriever(out, 'bm25')).search(QUERY, { k: rows.length });
    const warn = vi.spyOn(log, 'warn');
    try {
      expect(await new LexcaseRetriever({ index: out, filter: { kind: 'statute' } }).invoke(QUERY)).toEqual([]);
      // before: a misspelt key ("knd") kept nothing, and said nothing
      expect(await new LexcaseRetriever({ index: out, filter: { knd: 'rule' } }).invoke(QUERY)).toEqual([]);
      const n = (await matching).length;
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        `LexcaseRetriever (${out}): the filter keeps none of the ${n} passages of the bm25 ranking for this query: no hits`,
        `LexcaseRetriever (${out}): the filter keeps none of the ${n} passages of the bm25 ranking for this query: no hits; none of the passages it tested has the field "knd"`,
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it('a source filter naming a source the index does not hold is refused naming its sources, as /v1 filters.sources is (before: no Documents, no word)', async () => {
    const misspelt = new LexcaseRetriever({ index: out, filter: { source: ['fre', 'us_constitutoin'] } });
    await expect(misspelt.invoke(QUERY)).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'filter.source' } });
    await expect(misspelt.invoke(QUERY)).rejects.toThrow(
      /invalid filter\.source: "us_constitutoin" is not a source of this index; did you mean "us_constitution"\? its sources: /,
    );
  });

  it('a filter on an opened Retriever (no doc store to read fields from) is refused', async () => {
    const r = await openRetriever(out, 'bm25');
    expect(() => new LexcaseRetriever({ index: r, filter: { source: 'fre' } })).toThrow(/filter.*index directory/);
  });
});
