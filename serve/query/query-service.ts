/**
 * The query service: evidence search over one or more named indexes, the one implementation behind
 * the MCP tools (`lexcase mcp`, src/mcp/), the versioned HTTP API (`lexcase serve --api`, src/api/)
 * and the library (`openQueryService`). Each method takes the zod-described input of ./schemas.ts
 * (parsed here: a bad field is an INVALID_INPUT error naming it) and returns its output schema's
 * value — plain JSON, the same for the same input whichever surface asked.
 *
 *   const svc = await openQueryService({ indexes: [{ name: 'barexam', dir: 'idx' }] });
 *   const r = await svc.search({ query: 'hearsay exception', k: 5 });
 *   await svc.close();
 */
import { resolve } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { errors, LexcaseError } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { parseInput } from '../../core/parse-input.js';
import { openIndex, type OpenedIndex } from '../../retrieval/open-index.js';
import { METHOD_NAMES } from '../../retrieval/methods.js';
import { INDEX_NAME, type IndexSpec } from './index-specs.js';
import { evidenceFor, evidenceModel, explainPassage, searchPassages } from './index-queries.js';
import {
  evidenceInput,
  explainInput,
  passageInput,
  searchInput,
  SNIPPET_CHARS,
  type EvidenceInput,
  type EvidenceOutput,
  type ExplainInput,
  type ExplainOutput,
  type IndexInfo,
  type ListIndexesOutput,
  type PassageInput,
  type PassageOutput,
  type SearchInput,
  type SearchOutput,
} from './schemas.js';
import { cutUnits } from '../../core/truncate.js';

export type { IndexSpec };
export { parseInput };

export interface QueryServiceOptions {
  indexes: IndexSpec[];
  /**
   * Chat model for find_evidence's LLM advocate; none = offline only. One made with
   * createChatModel(loadConfig().llm) where no temperature is set runs at CASE's 0.3, as the CLI's.
   */
  llm?: BaseChatModel;
}

export interface QueryService {
  readonly indexNames: string[];
  listIndexes(): ListIndexesOutput;
  search(input: SearchInput): Promise<SearchOutput>;
  explain(input: ExplainInput): Promise<ExplainOutput>;
  getPassage(input: PassageInput): Promise<PassageOutput>;
  /** `signal` cancels the advocate's LLM calls (the caller went away). */
  findEvidence(input: EvidenceInput, signal?: AbortSignal): Promise<EvidenceOutput>;
  close(): Promise<void>;
}

/** The MCP resource URI of a passage: lexcase://INDEX/passage/ID. */
export function passageUri(index: string, id: string): string {
  return `lexcase://${encodeURIComponent(index)}/passage/${encodeURIComponent(id)}`;
}

const clip = (text: string) =>
  text.length > SNIPPET_CHARS ? { snippet: cutUnits(text, SNIPPET_CHARS), truncated: true } : { snippet: text, truncated: false };

interface Entry {
  name: string;
  ix: OpenedIndex;
  info: IndexInfo;
}

export async function openQueryService(opts: QueryServiceOptions): Promise<QueryService> {
  if (opts.indexes.length === 0) throw errors.usage('the query service needs at least one index');
  // find_evidence at run case's sampling on every surface: a library caller's createChatModel(loadConfig().llm)
  // with no temperature set runs at CASE's 0.3, as the CLI's model does (agents/case/evidence-sampling.ts)
  const o = opts.llm ? { ...opts, llm: (await import('../../agents/case/evidence-sampling.js')).atEvidenceSampling(opts.llm) } : opts;
  const seen = new Set<string>();
  for (const s of o.indexes) {
    if (!INDEX_NAME.test(s.name))
      throw errors.invalidInput('index name', `"${s.name}": use letters, digits, ".", "_" and "-" (at most 100), starting with a letter or digit`);
    if (seen.has(s.name)) throw errors.usage(`two indexes are named "${s.name}"`, 'name them: --index NAME=DIR');
    seen.add(s.name);
  }
  const entries = new Map<string, Entry>();
  const opened: OpenedIndex[] = [];
  try {
    for (const [i, s] of o.indexes.entries()) {
      const ix = await openIndex(resolve(s.dir));
      opened.push(ix);
      // open every method now: the first call is not slowed, and a method that cannot open here
      // (dense without its embedder) is not offered
      const rs = await ix.allRetrievers();
      const methods = ix.methods.filter((m) => rs[m]);
      // a method the index has that failed to open (its embedding endpoint down or refusing the key) is
      // said at start; one the index cannot offer (hybrid without qld: METHOD_UNAVAILABLE) only when asked for
      for (const [m, why] of ix.unopened) if (why.code !== 'METHOD_UNAVAILABLE') log.warn(`index ${s.name}: method ${m} is not offered: ${why.message}`);
      const info: IndexInfo = {
        name: s.name,
        corpus: ix.manifest.corpus.name,
        passages: ix.docs.size,
        sources: ix.docs.sources(),
        methods,
        explainable: methods.filter((m) => typeof rs[m]?.explain === 'function'),
        default: i === 0,
      };
      entries.set(s.name, { name: s.name, ix, info });
    }
  } catch (e) {
    for (const ix of opened) await ix.close().catch(() => {});
    throw e;
  }
  const first = o.indexes[0].name;
  const pick = (name: string | undefined): Entry => {
    const en = entries.get(name ?? first);
    if (!en) throw new LexcaseError('NOT_FOUND', `no index named "${name}" (this server has: ${[...entries.keys()].join(', ')})`, { field: 'index' });
    // an index rebuilt on disk since it was opened is refused (restart), never answered from as it was
    en.ix.assertCurrent();
    return en;
  };
  const requireMethod = (en: Entry, method: string) => {
    // a name lexcase does not know at all (a typo: bm26) is said so, not "not in index"
    if (!METHOD_NAMES.includes(method)) throw errors.methodUnknown(method, METHOD_NAMES, { name: en.name, methods: en.info.methods });
    const unopened = en.ix.unopened.get(method);
    // in the index but not opened at start (dense whose embedding endpoint refused the key or was down): why, not "not in index"
    if (!en.info.methods.includes(method) && unopened !== undefined)
      throw new LexcaseError(
        'METHOD_UNAVAILABLE',
        `method "${method}" of index "${en.name}" could not be opened when this server started: ${unopened.message} (available: ${en.info.methods.join(', ')})`,
        { field: 'method' },
      );
    if (!en.info.methods.includes(method))
      throw new LexcaseError('METHOD_UNAVAILABLE', `method "${method}" is not in index "${en.name}" (available: ${en.info.methods.join(', ')})`, {
        field: 'method',
      });
  };

  return {
    indexNames: [...entries.keys()],
    listIndexes: () => ({
      indexes: [...entries.values()].map((e) => ({
        ...e.info,
        sources: [...e.info.sources],
        methods: [...e.info.methods],
        explainable: [...e.info.explainable],
      })),
      llm: !!o.llm,
    }),

    async search(input) {
      const q = parseInput(searchInput, input, 'search');
      const en = pick(q.index);
      requireMethod(en, q.method);
      const sources = q.filters?.sources;
      const r = await searchPassages(en.ix, {
        query: q.query,
        method: q.method,
        k: q.k,
        sources,
        ...(q.rm3 ? { rm3: q.rm3 } : {}),
        maxTextChars: SNIPPET_CHARS,
      });
      return {
        index: en.name,
        query: q.query,
        method: r.method,
        k: q.k,
        ...(sources ? { filters: { sources } } : {}),
        hits: r.hits.map((h) => ({
          rank: h.rank,
          id: h.id,
          score: h.score,
          ...(h.title ? { title: h.title } : {}),
          ...(h.source ? { source: h.source } : {}),
          ...clip(h.text),
          uri: passageUri(en.name, h.id),
        })),
        ...(r.note ? { note: r.note } : {}),
        ...(r.queryCut ? { queryCut: r.queryCut } : {}),
        ...(r.querySource ? { querySource: r.querySource } : {}),
        ...(r.rm3NoFeedback ? { rm3NoFeedback: r.rm3NoFeedback } : {}),
      };
    },

    async explain(input) {
      const q = parseInput(explainInput, input, 'explain');
      const en = pick(q.index);
      requireMethod(en, q.method);
      const {
        method,
        explanation: e,
        expansion,
      } = await explainPassage(en.ix, {
        query: q.query,
        method: q.method,
        id: q.id,
        ...(q.rm3 ? { rm3: q.rm3 } : {}),
      });
      return {
        index: en.name,
        query: q.query,
        method,
        id: q.id,
        score: e.score,
        ...(e.base !== undefined ? { base: e.base } : {}),
        terms: e.terms.map((t) => ({ term: t.term, qtf: t.qtf, tf: t.tf, df: t.df, score: t.score })),
        ...(expansion ? { expansion: expansion.map((t) => ({ term: t.term, weight: t.weight })) } : {}),
        ...(e.detail ? { detail: e.detail } : {}),
      };
    },

    async getPassage(input) {
      const q = parseInput(passageInput, input, 'get_passage');
      const en = pick(q.index);
      const p = await en.ix.docs.get(q.id);
      if (!p) throw new LexcaseError('NOT_FOUND', `no passage "${q.id}" in index "${en.name}"`, { field: 'id' });
      return {
        index: en.name,
        id: p.id,
        ...(p.title ? { title: p.title } : {}),
        ...(p.source ? { source: p.source } : {}),
        text: p.text,
        uri: passageUri(en.name, p.id),
      };
    },

    async findEvidence(input, signal) {
      const q = parseInput(evidenceInput, input, 'find_evidence');
      const en = pick(q.index);
      const llm = evidenceModel(q.mode, o.llm);
      // the surface's own words (a field, not a CLI flag): /v1 answers 400, MCP a tool error
      if (q.stance === 'against' && !llm && !q.facts.trim())
        throw errors.invalidInput('facts', 'offline counter-evidence (stance "against" without an LLM) needs the facts of the case: give facts');
      const r = await evidenceFor(en.ix, {
        hypothesis: q.hypothesis,
        facts: q.facts,
        against: q.stance === 'against',
        k: q.k,
        llm,
        ...(signal ? { signal } : {}),
      });
      return {
        index: en.name,
        hypothesis: r.hypothesis,
        facts: r.facts,
        stance: r.stance,
        mode: r.mode,
        ...(r.temperature !== undefined ? { temperature: r.temperature } : {}),
        evidence: r.evidence.map((e, i) => ({
          rank: i + 1,
          id: e.id,
          score: e.score,
          justification: e.justification,
          ...(e.noteCutFrom !== undefined ? { noteCutFrom: e.noteCutFrom } : {}),
          ...clip(e.text ?? ''),
          uri: passageUri(en.name, e.id),
        })),
        toolCalls: r.toolCalls.map((c) => ({
          tool: c.tool,
          query: c.query,
          ids: c.ids,
          step: c.step,
          ...(c.output !== undefined ? { output: c.output } : {}),
          ...(c.error !== undefined ? { error: c.error } : {}),
          ...(c.repeated ? { repeated: true as const } : {}),
          ...(c.notOffered ? { notOffered: true as const } : {}),
        })),
        ...(r.analysis ? { analysis: r.analysis } : {}),
        ...(r.rejectedIds ? { rejectedIds: r.rejectedIds } : {}),
        ...(r.rejected ? { rejected: r.rejected } : {}),
        stop: r.stop,
        tokens: r.tokens,
        ...(r.error ? { error: r.error } : {}),
        ...(r.shortfall ? { shortfall: r.shortfall } : {}),
        ...(r.queryCut ? { queryCut: r.queryCut } : {}),
        ...(r.llmCalls !== undefined ? { llmCalls: r.llmCalls } : {}),
        ...(r.cacheSources ? { cacheSources: r.cacheSources, fromCache: r.fromCache } : {}),
        ...(r.cacheUnchecked ? { cacheUnchecked: r.cacheUnchecked } : {}),
        ...(r.serverChanged ? { serverChanged: r.serverChanged } : {}),
      };
    },

    async close() {
      for (const en of entries.values()) await en.ix.close();
    },
  };
}
