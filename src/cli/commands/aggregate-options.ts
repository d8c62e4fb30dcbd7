/**
 * Document aggregation flags, shared by `search --topics`, `eval retrieval --topics` and `eval run`:
 * `--aggregate maxp|firstp|sump`, the passage → document rule (`--doc-id-pattern`, else the
 * index's doc_id field) and, where the command searches, `--passage-hits` (passages retrieved per
 * topic before aggregation; default 10 × the documents kept). eval/trec/aggregate/ does the work.
 */
import type { Command } from 'commander';
import { errors } from '../../../core/errors.js';
import { parseIntOpt } from '../action.js';
import { AGGREGATE_HELP, PASSAGE_HITS_PER_DOC, docMapOf, parseAggregate, parseDocIdPattern, type Aggregation } from '../../../eval/trec/aggregate/index.js';

export interface AggregateFlags {
  aggregate?: string;
  docIdPattern?: string;
  passageHits?: number;
}

export function addAggregateOptions(cmd: Command, o: { searches: boolean }): Command {
  cmd
    .option('--aggregate <strategy>', `${AGGREGATE_HELP}; the run and its evaluation are then per document (document-level qrels)`)
    .option(
      '--doc-id-pattern <regex>',
      'with --aggregate: the passage id → document id rule, the regex\'s (?<doc>…) or first group (e.g. "^(.+)#p\\d+$"); default: the index\'s doc_id field (a passage without one is its own document)',
    );
  if (o.searches)
    cmd.option(
      '--passage-hits <n>',
      `with --aggregate: passages retrieved per topic before aggregation (default ${PASSAGE_HITS_PER_DOC} × the documents kept)`,
      parseIntOpt('passage-hits', { min: 1 }),
    );
  return cmd;
}

/** Refuse the rule flags without --aggregate (rather than ignore them). */
function assertAggregateGiven(flags: AggregateFlags): void {
  if (flags.aggregate === undefined && (flags.docIdPattern !== undefined || flags.passageHits !== undefined))
    throw errors.usage(`${flags.docIdPattern !== undefined ? '--doc-id-pattern' : '--passage-hits'} works with --aggregate maxp|firstp|sump`);
}

/** Checks the flags before any work: the strategy and the pattern. */
export function checkAggregateFlags(flags: AggregateFlags): void {
  assertAggregateGiven(flags);
  if (flags.aggregate !== undefined) parseAggregate(flags.aggregate);
  if (flags.docIdPattern !== undefined) parseDocIdPattern(flags.docIdPattern);
}

/**
 * The aggregation the flags ask for over index `index` (its doc store opened here and closed by
 * the returned close()), keeping `k` documents a topic; undefined without --aggregate.
 */
export async function aggregationFromFlags(
  flags: AggregateFlags,
  index: string | undefined,
  k: number | undefined,
): Promise<{ aggregation: Aggregation; passageHits?: number; close(): Promise<void> } | undefined> {
  checkAggregateFlags(flags);
  if (flags.aggregate === undefined) return undefined;
  const strategy = parseAggregate(flags.aggregate);
  let docs: import('../../../indexer/docstore.js').OpenedDocStore | undefined;
  if (index !== undefined) {
    const { openDocStore } = await import('../../../indexer/docstore.js');
    docs = await openDocStore(index);
  }
  try {
    const map = await docMapOf({ docs, pattern: flags.docIdPattern, index });
    const passageHits = k !== undefined ? (flags.passageHits ?? PASSAGE_HITS_PER_DOC * k) : undefined;
    return { aggregation: { strategy, map, ...(k !== undefined ? { k } : {}) }, passageHits, close: async () => docs?.close() };
  } catch (e) {
    await docs?.close();
    throw e;
  }
}
