/**
 * Document aggregation of passage runs: the one registry of strategies (maxp.ts, firstp.ts,
 * sump.ts), the passage → document rule (doc-id-rule.ts), and applying them to one topic's hits
 * (`lexcase search --topics`, `eval retrieval --topics`) or to a whole run (`eval run`). The result
 * is a document-level ranking in trec_eval's order, for document-level qrels.
 */
import { errors } from '../../../core/errors.js';
import type { Hit } from '../../../retrieval/types.js';
import { trecCompare } from '../order.js';
import type { RunDoc, TrecRun } from '../run.js';
import type { DocMap } from './doc-id-rule.js';
import { firstp } from './firstp.js';
import { maxp } from './maxp.js';
import { sump } from './sump.js';
import type { AggregationStrategy, PassageOfDoc } from './types.js';

export const AGGREGATIONS: Readonly<Record<string, AggregationStrategy>> = { maxp, firstp, sump };
export const AGGREGATION_NAMES = Object.keys(AGGREGATIONS);

/** Passages retrieved per document kept, by default (Pyserini's MaxP runs: --hits 10000 for 1000 documents). */
export const PASSAGE_HITS_PER_DOC = 10;

export const AGGREGATE_HELP = `passage → document aggregation: ${AGGREGATION_NAMES.map((n) => `${n} (${AGGREGATIONS[n].describe})`).join(' | ')}`;

/** An --aggregate value, checked. */
export function parseAggregate(v: string): AggregationStrategy {
  const s = Object.hasOwn(AGGREGATIONS, v) ? AGGREGATIONS[v] : undefined;
  if (!s) throw errors.invalidInput('--aggregate', `expected one of ${AGGREGATION_NAMES.join(', ')}, got "${v}"`);
  return s;
}

export interface Aggregation {
  strategy: AggregationStrategy;
  map: DocMap;
  /** Documents kept per topic (the best k); all when absent. */
  k?: number;
  /** The distinct passages aggregated so far, and those the rule gave no document id (each a document of its own). */
  tally?: { passages: Set<string>; own: Set<string> };
}

/** The passages aggregated that the rule gave no document id: each a document of its own, under its passage id. */
export function ownDocuments(a: Aggregation): { passages: number; of: number; examples: string[] } | undefined {
  if (!a.tally?.own.size) return undefined;
  return { passages: a.tally.own.size, of: a.tally.passages.size, examples: [...a.tally.own].slice(0, 5) };
}

/**
 * "2 of 40 passages of the run have no document id by the doc_id field (e.g. D1#p2): each counts as a document of its
 * own, …": said on stderr, in report.json's warnings and --json's aggregate.ownDocuments (before: a missing doc_id cell
 * moved MRR@10 from 0.5000 to 0.3333 with exit 0 and nothing said). Undefined when every passage had one.
 */
export function ownDocumentsNote(a: Aggregation): string | undefined {
  const o = ownDocuments(a);
  if (!o) return undefined;
  // the doc_id field cannot tell a passage indexed without one from one whose doc_id is its own id (the index keeps
  // neither: corpora/field-map.ts), so that rule says what it knows
  const what = a.map.rule === 'doc_id field' ? 'have no doc_id other than their own id' : `have no document id by the ${a.map.rule}`;
  return `${o.passages.toLocaleString('en-US')} of ${o.of.toLocaleString('en-US')} passages aggregated ${what} (e.g. ${o.examples.join(', ')}): each counts as a document of its own under its passage id, apart from any document it may belong to (its score is not that document's, and it can rank above it)`;
}

/** What a report or run summary records of an aggregation. */
export const describeAggregation = (a: Aggregation, passageHits?: number) => {
  const own = ownDocuments(a);
  return {
    strategy: a.strategy.name,
    docIds: a.map.rule,
    ...(a.k !== undefined ? { documents: a.k } : {}),
    ...(passageHits !== undefined ? { passageHits } : {}),
    ...(own ? { ownDocuments: own } : {}),
  };
};

/**
 * What a reader must know when topics' passage hits held fewer documents than a topic should get:
 * "2 of 5 topics got fewer than 20 documents from their 25 passages (--passage-hits 25; as few as 3,
 * e.g. q0, q1): …". Their runs hold only those documents, so a figure cut at more (recall@20) counts
 * a shorter list than the header's "20 documents a topic" says. Undefined when none did.
 */
export function passageHitsShortNote(
  short: { count: number; examples: readonly string[]; fewest: number } | undefined,
  topics: number,
  documents: number,
  passageHits: number,
): string | undefined {
  if (!short?.count) return undefined;
  const eg = short.examples.slice(0, 5).join(', ');
  return `${short.count.toLocaleString('en-US')} of ${topics.toLocaleString('en-US')} ${topics === 1 ? 'topic' : 'topics'} got fewer than ${documents.toLocaleString('en-US')} documents from ${short.count === 1 ? 'its' : 'their'} ${passageHits.toLocaleString('en-US')} passages (--passage-hits ${passageHits}; as few as ${short.fewest}, e.g. ${eg}): a document whose passages rank below them is not in the run, so figures cut at ${documents} count only the documents found; give a larger --passage-hits`;
}

function check(a: Aggregation): void {
  if (a.strategy.needsFirst && !a.map.isFirst)
    throw errors.usage(`--aggregate ${a.strategy.name} needs each document's first passage, which only an index's passage order gives: add --index DIR`);
}

function ranked(scores: Map<string, number>, k: number | undefined): RunDoc[] {
  const docs: RunDoc[] = [...scores].map(([docid, score]) => ({ docid, score }));
  docs.sort(trecCompare);
  return k !== undefined ? docs.slice(0, k) : docs;
}

function passagesOf(items: readonly { id: string; score: number }[], a: Aggregation): PassageOfDoc[] {
  const tally = (a.tally ??= { passages: new Set(), own: new Set() });
  return items.map((h) => {
    tally.passages.add(h.id);
    if (!a.map.hasDoc(h.id)) tally.own.add(h.id);
    return { id: h.id, score: h.score, docId: a.map.docOf(h.id), ...(a.map.isFirst && a.strategy.needsFirst ? { first: a.map.isFirst(h.id) } : {}) };
  });
}

/** One topic's passage hits → its document hits (id = document id), best first, ranks 1…. */
export function aggregateHits(hits: readonly Hit[], a: Aggregation): Hit[] {
  check(a);
  return ranked(a.strategy.aggregate(passagesOf(hits, a)), a.k).map((d, i) => ({ id: d.docid, score: d.score, rank: i + 1 }));
}

/** A passage-level TREC run → a document-level one (every topic). */
export function aggregateRun(run: TrecRun, a: Aggregation): TrecRun {
  check(a);
  const out: TrecRun = new Map();
  for (const [qid, docs] of run) {
    const d = ranked(
      a.strategy.aggregate(
        passagesOf(
          docs.map((x) => ({ id: x.docid, score: x.score })),
          a,
        ),
      ),
      a.k,
    );
    if (d.length) out.set(qid, d);
  }
  // a pattern with no index at hand is checked here: one that matched no passage of the run made every passage a document
  if (a.tally?.passages.size && a.tally.own.size === a.tally.passages.size)
    throw errors.usage(
      `the ${a.map.rule} gives no passage of the run a document id (e.g. "${[...a.tally.own][0]}"): every passage would be a document of its own`,
      'give a pattern whose capture group is the document id, e.g. "^(.+)#p\\d+$"',
    );
  return out;
}

export { docMapOf, parseDocIdPattern, type DocMap } from './doc-id-rule.js';
export type { AggregationStrategy, PassageOfDoc } from './types.js';
