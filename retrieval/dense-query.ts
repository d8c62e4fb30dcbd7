/**
 * How a dense query becomes one vector: the rule every dense search (and hybrid's dense component)
 * applies, recorded in each run's config (`denseQueryConfig`) and printed by `--help`.
 *
 * Default, `whole`: every word of the query is embedded. The query is cut into windows the
 * embedder reads whole, each window is embedded, and the vectors are averaged weighted by the
 * window's word count, then scaled to unit length (one window: exactly the embedder's vector).
 * - use-lite reads at most 128 tokens, so a Bar Exam fact pattern + question (216 tokens on average
 *   on val) does not fit one pass: its windows are the query's sentences, a sentence of more than
 *   USE_LITE_WINDOW_WORDS words in pieces of that many (≈ 100 tokens). Chosen on the Bar Exam QA
 *   train split among whole-query rules (token windows of 128, word windows of 64/128, sentences;
 *   docs/dense.md "Dense queries"). A window the model would cut (more than USE_LITE_MAX_TOKENS
 *   tokens by use-lite's own tokenizer: dense runs of citations, numbers, foreign words) is split
 *   further into the longest runs of its words that fit (a word too long by itself: of its
 *   characters); no Bar Exam QA window needs it, so their windows are as chosen.
 * - other embedders read 512 tokens or more: the query is one window, or, when the index's
 *   embedder spec truncates at `maxWords`, windows of whole sentences up to that many words.
 * No window is longer than the embedder keeps of a text (its spec's `maxWords`, use-lite's 256 when
 * unset; indexer/embed truncateWords): an index built with `--max-words 32` gets use-lite windows of
 * at most 32 words, so no word of the query is dropped by the embedder's own cut.
 *
 * `last-words` (opt-in, `--dense-query-words N`): only the last N words are embedded — the use-lite
 * rule before issue 36 (N = 24, tuned on train for the question at the end of a fact pattern); it
 * drops the rest of a longer query, so a passage's own opening no longer finds it. Where N is more
 * than the embedder keeps of a text, the N words are embedded in pieces of that many, mean-pooled
 * by words, so the query's last words (its question) are read.
 */
import { errors } from '../core/errors.js';
import { l2normalize, lastWords } from '../indexer/embed/batching.js';
import type { Embedder } from '../indexer/embed/types.js';
import { sharedUseLiteTokenizer, USE_LITE_MAX_TOKENS } from '../indexer/embed/use-lite-tokenizer.js';
import { USE_LITE_DEFAULT_MAX_WORDS } from '../indexer/embed/vector-spec.js';

export type DenseQueryRule = { kind: 'whole' } | { kind: 'last-words'; words: number };

export const WHOLE_QUERY: DenseQueryRule = { kind: 'whole' };

/** use-lite windows: one sentence, or pieces of this many words of a longer one. */
export const USE_LITE_WINDOW_WORDS = 64;

/** The rule of `queryWords` (the CLI's --dense-query-words): 0 or absent = the whole query, N = the last N words. */
export function denseQueryRule(queryWords?: number): DenseQueryRule {
  if (queryWords === undefined || queryWords === 0) return WHOLE_QUERY;
  if (!Number.isInteger(queryWords) || queryWords < 0) throw errors.invalidInput('dense query words', `expected a non-negative integer, got ${queryWords}`);
  return { kind: 'last-words', words: queryWords };
}

const words = (s: string) => s.split(/\s+/).filter(Boolean);
/** Sentences: split after . ? ! (and closing quotes/brackets) before whitespace, and at line breaks. */
const sentences = (s: string) =>
  s
    .split(/(?<=[.?!]["'”’)\]]?)\s+|\n+/)
    .map((x) => x.trim())
    .filter(Boolean);

/** Runs of `units` in order, each the longest whose text (the units joined by `sep`) fits; a unit that does not fit by itself, alone. */
function longestRuns(units: readonly string[], sep: string, fits: (text: string) => boolean): string[] {
  const out: string[] = [];
  for (let i = 0; i < units.length; ) {
    let lo = i + 1;
    let hi = units.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(units.slice(i, mid).join(sep))) lo = mid;
      else hi = mid - 1;
    }
    out.push(units.slice(i, lo).join(sep));
    i = lo;
  }
  return out;
}

/** A use-lite window as windows the model reads whole: itself when it fits its token limit, else runs of its words (of a word's characters) that do. */
function fitUseLite(window: string): string[] {
  const tokenizer = sharedUseLiteTokenizer();
  const fits = (text: string) => tokenizer.encode(text).length <= USE_LITE_MAX_TOKENS;
  if (fits(window)) return [window];
  return longestRuns(words(window), ' ', fits).flatMap((run) => (fits(run) ? [run] : longestRuns(Array.from(run), '', fits)));
}

/** The words the embedder keeps of each text it embeds (its spec's `maxWords`, use-lite's default when unset); 0: all of them. */
function keptWords(provider: string, maxWords?: number): number {
  if (maxWords && maxWords > 0) return maxWords;
  return provider === 'use-lite' ? USE_LITE_DEFAULT_MAX_WORDS : 0;
}

/** The words of one window under `whole`: use-lite's sentence pieces, never more than the embedder keeps; 0: one window. */
function windowWords(provider: string, maxWords?: number): number {
  const kept = keptWords(provider, maxWords);
  return provider === 'use-lite' ? Math.min(USE_LITE_WINDOW_WORDS, kept) : kept;
}

/** The windows of a query under `whole` for this embedder (`maxWords`: the index spec's per-text limit). */
export function queryWindows(query: string, provider: string, maxWords?: number): string[] {
  const limit = windowWords(provider, maxWords);
  if (!limit) return query.trim() ? [query] : [];
  const pieces: string[][] = [];
  for (const s of sentences(query)) {
    const w = words(s);
    for (let i = 0; i < w.length; i += limit) pieces.push(w.slice(i, i + limit));
  }
  if (provider === 'use-lite') return pieces.flatMap((p) => fitUseLite(p.join(' ')));
  // other embedders: pack whole sentences into windows of at most `limit` words
  const out: string[][] = [];
  for (const p of pieces) {
    const last = out.at(-1);
    if (last && last.length + p.length <= limit) last.push(...p);
    else out.push([...p]);
  }
  return out.map((p) => p.join(' '));
}

/** The last N words of `last-words`: one text, or pieces of as many words as the embedder keeps of a text when N is more. */
function lastWordsWindows(query: string, n: number, provider: string, maxWords?: number): string[] {
  const text = lastWords(query, n);
  const kept = keptWords(provider, maxWords);
  const w = words(text);
  if (!kept || w.length <= kept) return [text];
  const out: string[] = [];
  for (let i = 0; i < w.length; i += kept) out.push(w.slice(i, i + kept).join(' '));
  return out;
}

/** The texts embedded for `query` under `rule`, each one the embedder keeps whole (`maxWords`: the index spec's per-text limit). */
export function queryTexts(query: string, rule: DenseQueryRule, provider: string, maxWords?: number): string[] {
  return rule.kind === 'last-words' ? lastWordsWindows(query, rule.words, provider, maxWords) : queryWindows(query, provider, maxWords);
}

/** One unit vector for `query` under `rule`. */
export async function embedDenseQuery(embedder: Embedder, query: string, rule: DenseQueryRule, maxWords?: number): Promise<Float32Array> {
  const windows = queryTexts(query, rule, embedder.provider, maxWords);
  if (windows.length <= 1) return (await embedder.embed([windows[0] ?? query], { kind: 'query' }))[0];
  const vectors = await embedder.embed(windows, { kind: 'query' });
  const out = new Float32Array(embedder.dimension);
  vectors.forEach((v, i) => {
    const w = words(windows[i]).length;
    for (let d = 0; d < out.length; d++) out[d] += w * v[d];
  });
  return l2normalize(out);
}

/** What a run records about its dense queries (and `--help` says). */
export function denseQueryConfig(
  rule: DenseQueryRule,
  provider: string,
  maxWords?: number,
): { rule: string; words?: number; windows?: string; wordLimit?: number; text: string } {
  if (rule.kind === 'last-words') {
    const kept = keptWords(provider, maxWords);
    const text = `only the last ${rule.words} words of each query are embedded (--dense-query-words ${rule.words})`;
    if (!kept || rule.words <= kept) return { rule: 'last-words', words: rule.words, text };
    const windows = `pieces of at most ${kept} words (the index's word limit), mean-pooled weighted by words`;
    return { rule: 'last-words', words: rule.words, windows, wordLimit: kept, text: `${text}, in ${windows}` };
  }
  const pieces = windowWords(provider, maxWords);
  // the index's word limit sets the pieces (use-lite under 64 words): recorded apart for agent runs (denseQueryWordLimit)
  if (provider === 'use-lite' && pieces < USE_LITE_WINDOW_WORDS) {
    const windows = `sentences (a longer one in pieces of ${pieces} words, the index's word limit; a piece of more than ${USE_LITE_MAX_TOKENS} tokens in runs of words that fit), mean-pooled weighted by words`;
    return { rule: 'whole', windows, wordLimit: pieces, text: `the whole query is embedded: ${windows}` };
  }
  const windows =
    provider === 'use-lite'
      ? `sentences (a longer one in pieces of ${USE_LITE_WINDOW_WORDS} words; a piece of more than ${USE_LITE_MAX_TOKENS} tokens in runs of words that fit), mean-pooled weighted by words`
      : maxWords && maxWords > 0
        ? `whole sentences packed into windows of at most ${maxWords} words, mean-pooled weighted by words`
        : 'one window (the embedder reads up to its own maximum length)';
  return { rule: 'whole', windows, text: `the whole query is embedded: ${windows}` };
}

/** The dense query rule a retriever's `config` records (dense's own, or hybrid's dense component's), if any. */
export function denseQueryOf(config: Record<string, unknown> | undefined): { rule: string; text: string; wordLimit?: number } | undefined {
  const q = (config?.query ?? (config?.components as Record<string, Record<string, unknown>> | undefined)?.dense?.query) as
    | { rule?: unknown; text?: unknown; wordLimit?: unknown }
    | undefined;
  if (!q || typeof q.rule !== 'string' || typeof q.text !== 'string') return undefined;
  return { rule: q.rule, text: q.text, ...(typeof q.wordLimit === 'number' ? { wordLimit: q.wordLimit } : {}) };
}

/**
 * The config fragment an agent run that searches records beside `searchRanking`: for each of its
 * retrievers (dense, or a hybrid with dense) whose queries are embedded in pieces of the index's word
 * limit (a use-lite index built with --max-words under 64: denseQueryConfig `wordLimit`), that limit,
 * as `denseQueryWordLimit` ({ dense: 32 }); nothing elsewhere. An older lexcase embedded 64-word
 * pieces there of which the embedder kept the first N words, so resuming a run dir it started warns
 * (eval/resume-unrecorded.ts). `retrievers`: those the run's searches use.
 */
export function denseQueryWordLimit(retrievers: Partial<Record<string, { config?: Record<string, unknown> }>>): {
  denseQueryWordLimit?: Record<string, number>;
} {
  const limits = Object.entries(retrievers)
    .map(([m, r]) => [m, denseQueryOf(r?.config)?.wordLimit] as const)
    .filter((e): e is readonly [string, number] => e[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return limits.length ? { denseQueryWordLimit: Object.fromEntries(limits) } : {};
}

/** "Dense queries (dense, hybrid): …" — one line per rule in force, from each result's recorded config. */
export function denseQueryLines(results: readonly { method: string; config?: Record<string, unknown> }[]): string[] {
  const byText = new Map<string, string[]>();
  for (const res of results) {
    const q = denseQueryOf(res.config);
    if (q) byText.set(q.text, [...(byText.get(q.text) ?? []), res.method]);
  }
  return [...byText].map(([text, methods]) => `Dense queries (${methods.join(', ')}): ${text}.`);
}

/** The --help line of --dense-query-words. */
export const DENSE_QUERY_WORDS_HELP =
  "dense (also hybrid's dense): embed only the last N words of each query (the use-lite rule before issue 36 was 24); " +
  `default 0 = the whole query: use-lite embeds each sentence (pieces of ${USE_LITE_WINDOW_WORDS} words or the index's lower max words, fewer where they pass its ${USE_LITE_MAX_TOKENS}-token limit) and averages the vectors weighted by words, ` +
  "other embedders the query in one window (windows of the index's max words when it sets one); recorded in the run's config";
