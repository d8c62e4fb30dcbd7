/**
 * TREC run files (`qid Q0 docid rank score tag`, whitespace-separated) as trec_eval reads them
 * (get_trec_results.c), split on ASCII whitespace as trec_eval splits (trecFields): the second and
 * fourth columns are ignored — trec_eval re-ranks every topic by score (see order.ts), so a run's own
 * rank column never matters; the tag is kept for reports; fields after the sixth are ignored (a CR
 * inside a line, from lines ended by CR alone, is an error rather than a run of ignored fields). A docid listed twice for one topic is an error (trec_eval
 * stops with "duplicate docs" too). Blank and `#` lines are skipped.
 *
 * The writer is eval/retrieval-eval-run-file.ts (TrecRunWriter, scores with 6 decimals, a hybrid's with 10 significant digits).
 */
import { errors } from '../../core/errors.js';
import { isSkippable, readNamedLines, refuseInvalidUtf8, trecFields } from '../../corpora/named-lines.js';
import type { Hit } from '../../retrieval/types.js';
import { writtenScore } from '../../retrieval/top-k.js';

/** A run line's score as trec_eval's atof reads the same number: decimal digits, an optional point and exponent. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export interface RunDoc {
  docid: string;
  score: number;
}

/** qid → retrieved documents (in file order; evaluation sorts them the trec_eval way). */
export type TrecRun = Map<string, RunDoc[]>;

export interface LoadedRun {
  file: string;
  /** Tags seen in the file (normally one). */
  tags: string[];
  run: TrecRun;
  lines: number;
}

export async function loadTrecRun(file: string): Promise<LoadedRun> {
  const run: TrecRun = new Map();
  // per topic: docid → line, to name both lines of a duplicate (no concatenated keys: runs have millions of lines)
  const lineOf = new Map<string, Map<string, number>>();
  const tags = new Set<string>();
  let lines = 0;
  let qidLast: string | undefined;
  let docs: RunDoc[] = [];
  let seen = new Map<string, number>();
  for await (const l of readNamedLines('run file', file)) {
    const { line, text } = l;
    refuseInvalidUtf8(file, l);
    if (isSkippable(text)) continue;
    const f = trecFields(text);
    if (f.length < 6)
      throw errors.fileParse(
        file,
        line,
        `expected 6 whitespace-separated fields "qid Q0 docid rank score tag", found ${f.length}`,
        f.length === 3
          ? 'this looks like an MS MARCO-format run (qid docid rank); convert it to TREC format first (Pyserini: python -m pyserini.eval.convert_msmarco_run_to_trec_run)'
          : undefined,
      );
    // Lines ended by CR alone (classic Mac) arrive as one line: its first six fields were read as the
    // topic's only result and the rest ignored as extra fields (trec_eval does the same), silently.
    if (/\r\s*\S/.test(text))
      throw errors.fileParse(
        file,
        line,
        "a carriage return (CR) inside the line: the file's lines end in CR alone, so they would read as one line whose fields after the sixth are ignored",
        'convert the line ends to LF (e.g. tr "\\r" "\\n" < run > run.lf)',
      );
    const [qid, , docid, , scoreText, tag] = f;
    // a decimal number only: JavaScript's Number() also reads "0b1", "0o7" and "0x1f" (1, 7, 31), where trec_eval's
    // atof reads the first two as 0 — one file, two rankings, no word; and "" or "  " as 0
    if (!DECIMAL.test(scoreText))
      throw errors.fileParse(file, line, `score "${scoreText}" is not a decimal number (digits, an optional point and exponent: 12.5, -3, 1e-4)`);
    const score = Number(scoreText);
    if (!Number.isFinite(score)) throw errors.fileParse(file, line, `score "${scoreText}" is not a finite number`);
    if (qid !== qidLast) {
      qidLast = qid;
      let d = run.get(qid);
      if (!d) {
        run.set(qid, (d = []));
        lineOf.set(qid, new Map());
      }
      docs = d;
      seen = lineOf.get(qid)!;
    }
    const first = seen.get(docid);
    if (first !== undefined)
      throw errors.fileParse(
        file,
        line,
        `document "${docid}" is listed twice for topic "${qid}" (first on line ${first}); trec_eval refuses duplicate documents`,
      );
    seen.set(docid, line);
    docs.push({ docid, score });
    tags.add(tag);
    lines++;
  }
  if (lines === 0) throw errors.fileParse(file, undefined, 'no results in the run file');
  return { file, tags: [...tags], run, lines };
}

/** The score exactly as TrecRunWriter writes it (6 decimals, or a hybrid's 10 significant digits; retrieval/top-k.ts, where the cut reads it too). */
export { writtenScore };

/** Hits of one topic as run documents, scores rounded as in the run file (`digits`: the retriever's scoreDigits). */
export const runDocsOfHits = (hits: readonly Hit[], digits?: number): RunDoc[] => hits.map((h) => ({ docid: h.id, score: writtenScore(h.score, digits) }));

/**
 * A warning when a run file carries more than one run tag (column 6): trec_eval reads the whole
 * file as one run whatever its tags, so its figures (kept as they are) mix the tagged runs.
 * Before, `lexcase eval run` scored such a file in silence.
 */
export function runTagsWarning(r: Pick<LoadedRun, 'file' | 'tags'>, what: string): string | undefined {
  if (r.tags.length <= 1) return undefined;
  const shown = r.tags
    .slice(0, 5)
    .map((t) => `"${t}"`)
    .join(', ');
  const more = r.tags.length > 5 ? ` and ${r.tags.length - 5} more` : '';
  return `${what} carries ${r.tags.length} run tags (column 6: ${shown}${more}); trec_eval scores the whole file as one run, and so do these figures — split the file by tag to score each run`;
}
