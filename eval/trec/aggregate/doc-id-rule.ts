/**
 * The passage-id → document-id rule of document aggregation:
 * - the `doc_id` field (default): the document id each passage was indexed with (`doc_id`,
 *   `docId` or `document_id` in the corpus, --doc-id-field at build), read from the index's doc
 *   store; a passage indexed without one is a document of its own (its id is the document id);
 * - an id pattern (`--doc-id-pattern REGEX`): the regex's named group `doc`, else its first
 *   capture group, matched against the passage id — e.g. `^(.+)#p\d+$` for "opinion-12#p3"; an id
 *   the pattern does not match is a document of its own.
 * With the index at hand the rule also says which passage comes first in each document (the
 * earliest in the index's order), which FirstP needs.
 */
import { errors } from '../../../core/errors.js';
import type { OpenedDocStore } from '../../../indexer/docstore.js';

export interface DocMap {
  /** "doc_id field" or "id pattern /…/". */
  rule: string;
  docOf(passageId: string): string;
  /** Whether the rule gave the passage a document id (false: it is a document of its own, under its passage id). */
  hasDoc(passageId: string): boolean;
  /** Whether the passage is the first of its document; only where an index gives the order. */
  isFirst?(passageId: string): boolean;
}

/** A --doc-id-pattern, compiled and checked to capture something. */
export function parseDocIdPattern(source: string): RegExp {
  let re: RegExp;
  try {
    re = new RegExp(source, 'u');
  } catch (e) {
    throw errors.invalidInput('--doc-id-pattern', `not a regular expression: ${(e as Error).message}`);
  }
  // Count capture groups the standard way: a regex that matches the empty string, with the groups.
  const groups = new RegExp(`${source}|`, 'u').exec('')!.length - 1;
  if (groups < 1)
    throw errors.invalidInput('--doc-id-pattern', `"${source}" has no capture group: put the document id in (…) or (?<doc>…), e.g. "^(.+)#p\\d+$"`);
  return re;
}

const patternDoc = (re: RegExp, id: string): string | undefined => {
  const m = re.exec(id);
  const d = m ? (m.groups?.doc ?? m[1]) : undefined;
  return d ? d : undefined;
};
const byPattern =
  (re: RegExp) =>
  (id: string): string =>
    patternDoc(re, id) ?? id;

/**
 * The rule over an opened index (`docs`), or — pattern only — with no index (no `isFirst` then).
 * Passages of a run that the index does not hold are refused: the run is of another index.
 */
export async function docMapOf(o: { docs?: OpenedDocStore; pattern?: string; index?: string }): Promise<DocMap> {
  const re = o.pattern !== undefined ? parseDocIdPattern(o.pattern) : undefined;
  if (!o.docs) {
    if (!re) throw errors.usage('document aggregation needs the passage → document rule: the doc_id field of an index (--index DIR) or --doc-id-pattern REGEX');
    return { rule: `id pattern /${o.pattern}/`, docOf: byPattern(re), hasDoc: (id) => patternDoc(re, id) !== undefined };
  }
  const docs = o.docs;
  const ids = docs.ids();
  const fromField = re ? undefined : await docs.docIds();
  const docAt = (i: number): string => (fromField ? fromField[i] || ids[i] : byPattern(re!)(ids[i]));
  const hasDocAt = (i: number): boolean => (fromField ? !!fromField[i] : patternDoc(re!, ids[i]) !== undefined);
  const where = o.index ? ` ${o.index}` : '';
  // a rule that gives no passage of the index a document id makes every passage a document of its own: the
  // "documents" are the passages, scored against document qrels (before: MAP 0 with exit 0, nothing said)
  let any = false;
  for (let i = 0; i < ids.length && !any; i++) any = hasDocAt(i);
  if (!any && ids.length)
    throw errors.usage(
      re
        ? `--doc-id-pattern /${o.pattern}/ matches no passage id of index${where} (e.g. "${ids[0]}"): every passage would be a document of its own`
        : `index${where} records no doc_id for any passage: every passage would be a document of its own`,
      re
        ? 'give a pattern whose capture group is the document id, e.g. "^(.+)#p\\d+$"'
        : 'give --doc-id-pattern REGEX, or rebuild the index from a corpus with a doc_id field (--doc-id-field at build)',
    );
  const indexOf = (id: string): number => {
    const i = docs.indexOf(id);
    if (i < 0) throw errors.invalidInput('--index', `passage "${id}" is not in index${where}: the run was made on another index`);
    return i;
  };
  // The first passage of each document: the earliest in index order.
  let first: Map<string, number> | undefined;
  const firsts = (): Map<string, number> => {
    if (!first) {
      first = new Map();
      for (let i = 0; i < ids.length; i++) {
        const d = docAt(i);
        if (!first.has(d)) first.set(d, i);
      }
    }
    return first;
  };
  return {
    rule: re ? `id pattern /${o.pattern}/` : 'doc_id field',
    docOf: (id) => docAt(indexOf(id)),
    hasDoc: (id) => hasDocAt(indexOf(id)),
    isFirst: (id) => {
      const i = indexOf(id);
      return firsts().get(docAt(i)) === i;
    },
  };
}
