/**
 * Relevant judgements that name an id the evaluated index can never return. trec_eval counts them
 * as relevant and never retrieved, which is right for a pool judged over a larger collection, but
 * a qrels file of other ids (another corpus, document ids where the run ranks passages, an id in
 * another Unicode normalisation form than the corpus's) then lowers every recall-type figure with
 * no word. `eval retrieval --topics` says how many there are, with a likely cause where one shows.
 */
import type { Qrels } from '../../corpora/qrels.js';

/** An id quoted with its non-ASCII characters escaped, so two Unicode forms that print alike read apart ("caf\u00e9" vs "cafe\u0301"). */
const escaped = (id: string): string => JSON.stringify(id).replace(/[^\u0020-\u007e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** What the check reads of an index: whether an id is one the run can hold, and hints for one that is not. */
export interface JudgedIds {
  /** Whether the run can hold this id (a passage id; with --aggregate a document id). */
  has(id: string): boolean;
  /** "passages" or "documents": what the run ranks. */
  unit: 'passages' | 'documents';
  /** The index's own form of `id` when only its Unicode normalisation differs (NFC vs NFD), else undefined. */
  otherForm?(id: string): string | undefined;
  /** The index's document ids (for passage runs: the qrels may be per document); read only when some judgement is missing. */
  documentIds?(): Promise<ReadonlySet<string>>;
}

/**
 * A warning when some relevant judgements (grade ≥ `level`) of the searched topics name ids the
 * run cannot hold; undefined when none do.
 */
export async function judgementsNotInIndex(
  qrels: Qrels,
  topicIds: readonly string[],
  level: number,
  ids: JudgedIds,
  where: string,
): Promise<string | undefined> {
  let relevant = 0;
  const missing: string[] = [];
  const topics = new Set<string>();
  for (const qid of new Set(topicIds)) {
    const judged = qrels.get(qid);
    if (!judged) continue;
    for (const [docid, rel] of judged) {
      if (rel < level) continue;
      relevant++;
      if (ids.has(docid)) continue;
      missing.push(docid);
      topics.add(qid);
    }
  }
  if (!missing.length) return undefined;
  const examples = [...new Set(missing)].slice(0, 3);
  const all = missing.length === relevant;
  const what = `${all ? `all ${relevant}` : `${missing.length} of ${relevant}`} relevant judgements (${topics.size} ${topics.size === 1 ? 'topic' : 'topics'}) name ${ids.unit} not in ${where} (e.g. ${examples.map((d) => JSON.stringify(d)).join(', ')})`;
  const effect = 'they count as relevant and never retrieved, which lowers recall, MAP, nDCG and the other figures of those topics';
  const hints: string[] = [];
  const forms = examples.map((d) => [d, ids.otherForm?.(d)] as const).filter((x): x is readonly [string, string] => x[1] !== undefined);
  if (forms.length)
    hints.push(
      `${forms.map(([d, f]) => `${escaped(d)} is ${escaped(f)} in the index`).join(', ')}, another Unicode normalisation form (NFC/NFD) of the same text: write the qrels ids as the corpus spells them`,
    );
  const documents = ids.unit === 'passages' ? await ids.documentIds?.() : undefined;
  if (documents && missing.some((d) => documents.has(d)))
    hints.push('some are document ids of this index: for document-level qrels add --aggregate maxp (or firstp, sump)');
  if (!hints.length) hints.push(`check that the qrels are for this index's ${ids.unit}`);
  return `${what}: ${effect}; ${hints.join('; ')}`;
}
