/**
 * Passage → document aggregation on real text: an index of six bundled legal_corpus opinions and
 * rules (their passages carry doc_id), searched with bm25 and qld. Each strategy's document ranking
 * is checked against its definition computed here from the raw passage hits and the corpus file:
 * MaxP = best passage, FirstP = the document's first passage in corpus order (documents whose first
 * passage was not retrieved left out), SumP = the sum of the retrieved passages (refused on qld's
 * negative scores). The id-pattern rule gives the same documents as the doc_id field; a run of
 * another index is refused.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../../indexer/build.js';
import { openDocStore, type OpenedDocStore } from '../../../indexer/docstore.js';
import { openRetriever } from '../../../retrieval/open.js';
import type { Hit } from '../../../retrieval/types.js';
import { bundledLines, LEGAL_CORPUS_PASSAGES } from '../../../tests/support/bundled-data.js';
import { evalTopicsOnIndex } from '../eval-index.js';
import { parseMeasures } from '../measures.js';
import {
  aggregateHits,
  aggregateRun,
  AGGREGATION_NAMES,
  describeAggregation,
  docMapOf,
  ownDocumentsNote,
  parseAggregate,
  parseDocIdPattern,
  type Aggregation,
} from './index.js';

interface Row {
  id: string;
  doc_id: string;
  text: string;
  source: string;
}
const all = bundledLines(LEGAL_CORPUS_PASSAGES)
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Row);
// Six documents: four Arkansas opinions and two Federal Rules of Evidence, every passage of each.
const docIds = [...new Set(all.filter((r) => r.source === 'cap_arkansas_sample').map((r) => r.doc_id))]
  .slice(0, 4)
  .concat([...new Set(all.filter((r) => r.source === 'fre').map((r) => r.doc_id))].slice(0, 2));
const rows = all.filter((r) => docIds.includes(r.doc_id));
const firstOf = new Map<string, string>();
for (const r of rows) if (!firstOf.has(r.doc_id)) firstOf.set(r.doc_id, r.id);
const docOf = new Map(rows.map((r) => [r.id, r.doc_id]));

const dir = mkdtempSync(join(tmpdir(), 'lexcase-aggregate-'));
const index = join(dir, 'idx');
let docs: OpenedDocStore;
const QUERY = 'the court held that the evidence was not admissible and the judgment is reversed';

beforeAll(async () => {
  await buildIndex(
    rows.map((r) => ({ id: r.id, text: r.text, docId: r.doc_id, source: r.source })),
    { out: index, workers: 0 },
  );
  docs = await openDocStore(index);
}, 120_000);
afterAll(async () => {
  await docs?.close();
  rmSync(dir, { recursive: true, force: true });
});

const byScore = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1)).map(([id, score]) => ({ id, score }));

/** `eval retrieval --topics` of one topic q1 on bm25, per document (maxp), the `relevant` documents judged relevant, Recall@depth. */
const maxpTopic = (query: string, relevant: readonly string[], depth: number, passageHits: number, threads = 1) =>
  evalTopicsOnIndex({
    index,
    methods: ['bm25'],
    topics: [{ id: 'q1', text: query }],
    topicsFile: 'topics.tsv',
    qrels: new Map([['q1', new Map(relevant.map((d) => [d, 1]))]]),
    qrelsFile: 'qrels.txt',
    depth,
    aggregate: { strategy: 'maxp', passageHits },
    measures: parseMeasures([`recall@${depth}`]),
    iterations: 200,
    threads,
  });

describe('document aggregation', () => {
  it('the corpus slice has documents of several passages (else there is nothing to aggregate)', () => {
    expect(rows.length).toBeGreaterThan(docIds.length * 3);
    expect(docIds).toHaveLength(6);
  });

  it('maxp, firstp and sump follow their definitions on bm25 hits; k keeps the best documents', async () => {
    const bm25 = await openRetriever(index, 'bm25');
    const hits = await bm25.search(QUERY, { k: 30 });
    expect(new Set(hits.map((h) => docOf.get(h.id))).size).toBeGreaterThan(2);
    const map = await docMapOf({ docs, index });
    const max = new Map<string, number>();
    const sum = new Map<string, number>();
    const first = new Map<string, number>();
    for (const h of hits) {
      const d = docOf.get(h.id)!;
      max.set(d, Math.max(max.get(d) ?? -Infinity, h.score));
      sum.set(d, (sum.get(d) ?? 0) + h.score);
      if (firstOf.get(d) === h.id) first.set(d, h.score);
    }
    const strip = (hs: Hit[]) => hs.map(({ id, score }) => ({ id, score }));
    expect(strip(aggregateHits(hits, { strategy: parseAggregate('maxp'), map }))).toEqual(byScore(max));
    expect(strip(aggregateHits(hits, { strategy: parseAggregate('sump'), map }))).toEqual(
      byScore(sum).map((d) => ({ id: d.id, score: expect.closeTo(d.score, 9) as unknown as number })),
    );
    const fp = aggregateHits(hits, { strategy: parseAggregate('firstp'), map });
    expect(strip(fp)).toEqual(byScore(first));
    // some retrieved document is left out by FirstP: its first passage was not among the hits
    expect(fp.length).toBeLessThan(max.size);
    const top2 = aggregateHits(hits, { strategy: parseAggregate('maxp'), map, k: 2 });
    expect(top2.map((h) => [h.id, h.rank])).toEqual(
      byScore(max)
        .slice(0, 2)
        .map((d, i) => [d.id, i + 1]),
    );
  });

  it('an id pattern gives the documents the doc_id field gives; without an index firstp is refused', async () => {
    const hits = await (await openRetriever(index, 'bm25')).search(QUERY, { k: 30 });
    const field: Aggregation = { strategy: parseAggregate('maxp'), map: await docMapOf({ docs, index }) };
    const pattern: Aggregation = { strategy: parseAggregate('maxp'), map: await docMapOf({ pattern: '^(?<doc>.+)#p\\d+$' }) };
    expect(aggregateHits(hits, pattern)).toEqual(aggregateHits(hits, field));
    expect(() => aggregateHits(hits, { ...pattern, strategy: parseAggregate('firstp') })).toThrow(/firstp needs each document's first passage.*--index/);
    // with the index the pattern also knows each document's first passage
    const withIndex: Aggregation = { strategy: parseAggregate('firstp'), map: await docMapOf({ docs, index, pattern: '^(.+)#p\\d+$' }) };
    expect(aggregateHits(hits, withIndex)).toEqual(aggregateHits(hits, { ...field, strategy: parseAggregate('firstp') }));
  });

  it("sump refuses qld's negative log-probabilities; maxp takes them", async () => {
    const hits = await (await openRetriever(index, 'qld')).search(QUERY, { k: 10 });
    expect(hits.some((h) => h.score < 0)).toBe(true);
    const map = await docMapOf({ docs, index });
    expect(() => aggregateHits(hits, { strategy: parseAggregate('sump'), map })).toThrow(/sump adds passage scores.*< 0/);
    expect(aggregateHits(hits, { strategy: parseAggregate('maxp'), map })[0].id).toBe(docOf.get(hits[0].id));
  });

  it('a whole run aggregates per topic; a passage the index does not hold is refused', async () => {
    const map = await docMapOf({ docs, index });
    const a: Aggregation = { strategy: parseAggregate('maxp'), map };
    const [p0, p1] = rows.filter((r) => r.doc_id === docIds[0]);
    const run = new Map([
      [
        'q1',
        [
          { docid: p0.id, score: 2 },
          { docid: p1.id, score: 3 },
          { docid: rows.at(-1)!.id, score: 1 },
        ],
      ],
    ]);
    expect(aggregateRun(run, a).get('q1')).toEqual([
      { docid: docIds[0], score: 3 },
      { docid: rows.at(-1)!.doc_id, score: 1 },
    ]);
    expect(() => aggregateRun(new Map([['q1', [{ docid: 'cap-nowhere#p0', score: 1 }]]]), a)).toThrow(
      /passage "cap-nowhere#p0" is not in index .*another index/,
    );
  });

  it('a passage the rule gives no document id is counted and said (ownDocuments); a rule that gives none is refused', async () => {
    // the pattern misses ids with a two-digit passage number: those passages become documents of their own
    const miss: Aggregation = { strategy: parseAggregate('sump'), map: await docMapOf({ pattern: '^(.+)#p\\d$' }) };
    const run = new Map([
      [
        'q1',
        [
          { docid: 'D1#p1', score: 9 },
          { docid: 'D2#p1', score: 7 },
          { docid: 'D1#p12', score: 5 },
        ],
      ],
    ]);
    // before: D1 5 points lower than its passages sum to, D1#p12 a "document", and nothing said
    expect(
      aggregateRun(run, miss)
        .get('q1')!
        .map((d) => d.docid),
    ).toEqual(['D1', 'D2', 'D1#p12']);
    expect(describeAggregation(miss).ownDocuments).toEqual({ passages: 1, of: 3, examples: ['D1#p12'] });
    expect(ownDocumentsNote(miss)).toMatch(/^1 of 3 passages aggregated have no document id by the id pattern \/\^\(\.\+\)#p\\d\$\/ \(e\.g\. D1#p12\)/);
    const full: Aggregation = { strategy: parseAggregate('sump'), map: await docMapOf({ pattern: '^(.+)#p\\d+$' }) };
    aggregateRun(run, full);
    expect(ownDocumentsNote(full)).toBeUndefined();
    // a pattern that matches no passage of the run (or of the index), and an index with no doc_id: refused
    const none: Aggregation = { strategy: parseAggregate('sump'), map: await docMapOf({ pattern: '^(.+)_p\\d+$' }) };
    expect(() => aggregateRun(run, none)).toThrow(/gives no passage of the run a document id \(e\.g\. "D1#p1"\)/);
    await expect(docMapOf({ docs, index, pattern: '^(.+)_p\\d+$' })).rejects.toThrow(/matches no passage id of index/);
    const bare = join(dir, 'no-doc-ids');
    await buildIndex(
      rows.slice(0, 5).map((r) => ({ id: r.id, text: r.text })),
      { out: bare, workers: 0 },
    );
    const bareDocs = await openDocStore(bare);
    try {
      await expect(docMapOf({ docs: bareDocs, index: bare })).rejects.toThrow(/records no doc_id for any passage/);
    } finally {
      await bareDocs.close();
    }
  }, 60_000);

  it("eval retrieval --topics --aggregate says when a topic's passage hits held fewer documents than --hits (its recall counts only those), and not when they held enough", async () => {
    const bm25 = await openRetriever(index, 'bm25');
    const all = await bm25.search(QUERY, { k: rows.length });
    // the documents the query matches, all judged relevant, and as many documents a topic (--hits)
    const matched = [...new Set(all.map((h) => docOf.get(h.id)!))];
    const depth = matched.length;
    expect(depth).toBeGreaterThan(2);
    // the best 3 passages come from fewer documents than that
    const few = 3;
    const found = new Set(all.slice(0, few).map((h) => docOf.get(h.id))).size;
    expect(found).toBeLessThan(depth);
    const run = (passageHits: number) => maxpTopic(QUERY, matched, depth, passageHits);
    const recall = (r: Awaited<ReturnType<typeof run>>) => r.results[0].means[`recall@${depth}`].estimate;
    const short = await run(few);
    expect(recall(short)).toBeCloseTo(found / depth, 9);
    expect(short.warnings).toContainEqual(
      `bm25: 1 of 1 topic got fewer than ${depth} documents from its ${few} passages (--passage-hits ${few}; as few as ${found}, e.g. q1): a document whose passages rank below them is not in the run, so figures cut at ${depth} count only the documents found; give a larger --passage-hits`,
    );
    // passage hits that reach every matched document: recall 1, nothing to say
    const whole = await run(all.length);
    expect(recall(whole)).toBe(1);
    expect(whole.warnings ?? []).not.toContainEqual(expect.stringContaining('--passage-hits'));
  });

  it('eval retrieval --topics --aggregate does not warn when --passage-hits equals the passages the method matches (nothing was cut), and does one fewer', async () => {
    const bm25 = await openRetriever(index, 'bm25');
    // a query only some passages match: bm25 ranks every one of them, and no other
    const query = 'witness';
    const matchedPassages = await bm25.search(query, { k: rows.length });
    const m = matchedPassages.length;
    expect(m).toBeGreaterThan(1);
    expect(m).toBeLessThan(rows.length);
    const matchedDocs = new Set(matchedPassages.map((h) => docOf.get(h.id)!));
    // as many documents a topic (--hits) as the index holds: more than those passages come from
    const depth = docIds.length;
    expect(matchedDocs.size).toBeLessThan(depth);
    const run = (passageHits: number, threads: number) => maxpTopic(query, docIds, depth, passageHits, threads);
    for (const threads of [1, 2]) {
      // every matched passage taken: the short list is all the method finds, a larger --passage-hits finds no more
      // (before: "1 of 1 topic got fewer than 6 documents from its m passages … give a larger --passage-hits")
      const all = await run(m, threads);
      expect(all.results[0].means[`recall@${depth}`].estimate).toBeCloseTo(matchedDocs.size / depth, 9);
      expect(all.warnings ?? []).not.toContainEqual(expect.stringContaining('--passage-hits'));
      expect((await run(m + 5, threads)).results[0].means).toEqual(all.results[0].means);
      // one passage fewer: the cut left a matched passage out, so the warning stays
      const cut = await run(m - 1, threads);
      expect(cut.warnings).toContainEqual(
        expect.stringContaining(`bm25: 1 of 1 topic got fewer than ${depth} documents from its ${m - 1} passages (--passage-hits ${m - 1};`),
      );
    }
  });

  it('names the strategies in its errors and wants a capture group in a pattern', () => {
    expect(AGGREGATION_NAMES).toEqual(['maxp', 'firstp', 'sump']);
    expect(() => parseAggregate('meanp')).toThrow(/expected one of maxp, firstp, sump, got "meanp"/);
    expect(() => parseDocIdPattern('#p\\d+$')).toThrow(/has no capture group/);
    expect(() => parseDocIdPattern('(')).toThrow(/not a regular expression/);
  });
});
