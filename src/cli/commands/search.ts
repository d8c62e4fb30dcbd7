/**
 * `lexcase search "<query>" --index DIR --method bm25|qld|… [-k N] [--explain] [--json]`:
 * rank, id, score and a snippet from the index's doc store; --explain adds per-term contributions.
 * `--approx-postings X` / `--approx-max-postings N` (bm25, qld): opt-in approximate scoring under a
 * posting budget, labelled approximate in the header and the JSON (`approximate`).
 * With `--topics FILE --run-file OUT` instead of a query: batch search into a TREC run (search-batch.ts).
 */
import type { Command } from 'commander';
import type { Explanation, Hit } from '../../../retrieval/types.js';
import type { Rm3Retriever, Rm3Term } from '../../../retrieval/rm3.js';
import { errors } from '../../../core/errors.js';
import { action, output, parseIntOpt, type GlobalOpts } from '../action.js';
import { addRetrieverOptions, retrieverOptions, type RetrieverFlags } from './retriever-options.js';
import { addBatchSearchOptions, refuseBatchOnlyFlags, runBatchSearch, type BatchSearchFlags } from './search-batch.js';
import { addApproxOptions, approxFromFlags, checkApproxMethod, describeApprox } from './approx-options.js';
import { SEARCH_K } from '../../../retrieval/default-k.js';
import { methodsHelp } from '../../../retrieval/methods.js';
import { beyondDepthNote } from '../../../retrieval/ranking-depth.js';
import { log } from '../../../core/log.js';
import { fixed } from '../../../core/fixed.js';
import { terminalLine } from '../../../core/terminal-text.js';

interface SearchFlags extends RetrieverFlags, BatchSearchFlags {
  index: string;
  method: string;
  k: number;
  explain?: boolean;
  snippet: number;
}

export function snippet(text: string, width: number): string {
  // Only the start of the text can reach the snippet: collapsing the whitespace of a 60 MB passage took 13 s and ~1 GB.
  const head = text.length > width * 8 + 1024 ? text.slice(0, width * 8 + 1024) : text;
  const flat = head.replace(/\s+/g, ' ').trim();
  return flat.length <= width && head.length === text.length ? flat : `${flat.slice(0, width - 1).trimEnd()}…`;
}

/** Bytes of a passage's text to read for a snippet of `width` characters (whitespace runs collapse, so some slack). */
export const snippetBytes = (width: number) => Math.max(64 << 10, width * 32);

function explainLines(e: Explanation): string[] {
  const lines = e.terms
    .filter((t) => t.score !== 0 || t.tf > 0)
    .sort((a, b) => b.score - a.score)
    .map(
      (t) =>
        `      ${t.term.padEnd(16)} ${fixed(t.score, 4).padStart(9)}  (tf ${t.tf}, df ${t.df}, ${Number.isInteger(t.qtf) ? `qtf ${t.qtf}` : `weight ${t.qtf.toFixed(4)}`})`,
    );
  if (e.base !== undefined) lines.push(`      ${'(base)'.padEnd(16)} ${fixed(e.base, 4).padStart(9)}`);
  const unmatched = e.terms.filter((t) => t.tf === 0 && t.score === 0).map((t) => t.term);
  if (unmatched.length) lines.push(`      unmatched: ${unmatched.join(' ')}`);
  if (e.terms.length === 0 && e.detail) lines.push(`      ${JSON.stringify(e.detail)}`); // dense / hybrid: fusion components
  return lines;
}

export function register(program: Command): void {
  addApproxOptions(
    addRetrieverOptions(
      addBatchSearchOptions(
        program
          .command('search')
          .description('search an index and print rank, id, score and a snippet')
          .argument('[query]', 'query text (quote it); or --topics FILE for a batch')
          .requiredOption('--index <dir>', 'index directory (from `lexcase index build`)')
          .option('--method <name>', `retrieval method, one the index has: ${methodsHelp()}`, 'bm25')
          .option('-k, --k <n>', 'number of hits', parseIntOpt('k', { min: 1 }), SEARCH_K)
          .option('--explain', 'per-term score contributions of each hit')
          .option('--snippet <chars>', 'snippet width in characters', parseIntOpt('snippet', { min: 1 }), 160),
      ),
    ),
  ).action(
    action(async (query: string | undefined, flags: SearchFlags, cmd: Command) => {
      if (flags.topics !== undefined) return runBatchSearch(query, flags, cmd);
      if (query === undefined) throw errors.usage('give a query (quoted) or --topics FILE --run-file OUT');
      refuseBatchOnlyFlags(cmd);
      if (!query.trim()) throw errors.usage('the query is empty', 'give a query with at least one word (quoted), as /v1/search and MCP search require');
      const g = cmd.optsWithGlobals() as GlobalOpts;
      if (flags.k < 1) throw errors.invalidInput('-k', `expected a positive integer, got ${flags.k}`);
      const approx = approxFromFlags(flags);
      checkApproxMethod(approx, flags.method);
      if (approx && flags.explain)
        throw errors.usage('--explain gives exact per-term scores; it does not combine with --approx-postings / --approx-max-postings');
      const { openIndex } = await import('../../../retrieval/open-index.js');
      const idx = await openIndex(flags.index);
      const docs = idx.docs;
      try {
        const retriever = await idx.retriever(flags.method, retrieverOptions(flags, [flags.method]));
        const t0 = performance.now();
        // Tied hits in the order of `search --topics` and eval (retrieval/top-k.ts): the rank printed is the rank evaluated.
        const { printedRun } = await import('../../../retrieval/top-k.js');
        const hits = await printedRun(retriever, query, flags.k, approx ? { approx } : {});
        const ms = performance.now() - t0;
        // k beyond what the method ranks (hybrid: its depth): fewer hits, or hits past the depth ranked by part of the lists.
        const note = beyondDepthNote(retriever, flags.k, hits.length);
        if (note) log.warn(note);
        // dense / hybrid: a query longer than the model reads (said on stderr as it is embedded; --json carries it too)
        const queryCut = (await import('../../../retrieval/dense-query-cut.js')).queryCutNote(retriever, query);
        // dense / hybrid: queries embedded by another source than the passages (warned on stderr as the index opened)
        const querySource = (await import('../../../retrieval/dense-query-source.js')).querySourceNote(retriever);
        // dense / hybrid under --dense-query-words N: only the query's last N words were embedded (said where the hits are, --json included)
        const denseQuery = (await import('../../../retrieval/dense-query.js')).denseQueryOf(retriever.config);
        const queryWords = denseQuery?.rule === 'last-words' ? denseQuery.text : undefined;
        // RM3: the expanded query the hits were ranked by (its first stage is searched again; deterministic).
        const expanded = 'expand' in retriever ? await (retriever as Rm3Retriever).expand(query) : undefined;
        const expansion: Rm3Term[] | undefined = expanded?.terms;
        // RM3 that added no feedback term ranks as the base method: said, so the same hits do not read as chance
        const rm3NoFeedback = expanded && (await import('../../../retrieval/rm3-no-feedback.js')).queryNoFeedbackNote(expanded);
        if (rm3NoFeedback) log.warn(`search ${retriever.method}: ${rm3NoFeedback}`);
        if (flags.explain && !retriever.explain) throw errors.usage(`method "${flags.method}" has no --explain`);
        const rows: Array<Hit & { title?: string; source?: string; text: string; explanation?: Explanation }> = [];
        for (const h of hits) {
          const p = await docs.get(h.id, { maxTextBytes: snippetBytes(flags.snippet) });
          const explanation = flags.explain && retriever.explain ? await retriever.explain(query, h.id) : undefined;
          rows.push({ ...h, title: p?.title, source: p?.source, text: p?.text ?? '', explanation });
        }
        output(
          g,
          {
            query,
            method: retriever.method,
            index: flags.index,
            k: flags.k,
            ...(approx ? { approximate: approx } : {}),
            ...(expansion ? { expansion } : {}),
            ...(rm3NoFeedback ? { rm3NoFeedback } : {}),
            ms,
            ...(note ? { note } : {}),
            ...(queryCut ? { queryCut } : {}),
            ...(querySource ? { querySource } : {}),
            ...(queryWords ? { denseQuery: queryWords } : {}),
            hits: rows.map(({ text, ...r }) => ({ ...r, snippet: snippet(text, flags.snippet) })),
          },
          () => {
            if (rows.length === 0) return `no hits for "${terminalLine(snippet(query, 60))}" (${retriever.method}; all query terms unknown or stopwords?)`;
            const out = [`${rows.length} hits · ${retriever.method}${approx ? ` · ${describeApprox(approx)}` : ''} · ${ms.toFixed(1)} ms`];
            if (queryWords) out.push(`dense query: ${queryWords}`);
            if (expansion) out.push(`expanded query (RM3): ${expansion.map((t) => `${t.term} ${fixed(t.weight, 4)}`).join(', ')}`);
            for (const r of rows) {
              out.push(`${String(r.rank).padStart(4)}  ${fixed(r.score, 4).padStart(10)}  ${r.id}${r.title ? `  — ${terminalLine(r.title)}` : ''}`);
              // the text is the corpus's: its control characters are shown escaped, never sent to the terminal
              out.push(`      ${terminalLine(snippet(r.text, flags.snippet))}`);
              if (r.explanation) out.push(...explainLines(r.explanation));
            }
            return out.join('\n');
          },
        );
      } finally {
        await idx.close();
      }
    }),
  );
}
