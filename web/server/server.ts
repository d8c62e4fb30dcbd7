/**
 * The explorer's HTTP server (`lexcase serve`): the browser app at / and a JSON API under /api.
 * Bound to 127.0.0.1 by default. Every request's Host must name the server (127.0.0.1, localhost,
 * [::1] or the --host address, with the bound port) and its Origin, if sent, be such a host's
 * origin — else 403 before any work (host-guard.ts: DNS rebinding). Every input is validated with zod (400 with a message naming the
 * field); runs and graphs are addressed by ids from the server's own listing (404 otherwise); the
 * only writes are ACAL contestations, through the library, inside the chosen run's acal/ folder.
 * Nothing from the LLM configuration (endpoint, key, cache) and no absolute server path is ever
 * sent to the browser (public-json.ts). Routes are Maps (no prototype keys: /api/constructor is a 404).
 *
 *   GET  /api/info                         index (name, methods, passages), runs root?, llm available?
 *   GET  /api/search?q=&method=&k=          highlighted hits
 *   GET  /api/explain?q=&method=&id=        one hit's per-term score explanation (on demand)
 *   POST /api/evidence                      {hypothesis, facts?, against?, k?, mode: offline|llm}
 *   GET  /api/runs                          discovered runs
 *   GET  /api/run/questions?run=&filter=    CASE questions (all | correct | wrong)
 *   GET  /api/run/trace?run=&item=          one question's trace, gold marked
 *   GET  /api/acal/graphs?run=              argument graphs of a run
 *   GET  /api/acal/graph?run=&item=         graph (recomputed), audit log, semantics comparison
 *   POST /api/acal/contest                  {run, item, action, who?} → contest(...)
 *   GET  /api/runs/summary                  every run: system, dataset, n, accuracy [95% CI], failures, tokens, date
 *   GET  /api/run/summary?run=              one run's summary, plots (Vega-Lite specs), table.json if present
 *   GET  /api/compare?a=&b=                 paired bootstrap Δ, agreement matrix, items where the runs differ
 *   GET  /api/eval/sets                     topics+qrels sets (bundled Bar Exam QA splits, --topics/--qrels)
 *   GET  /api/eval/retrieval?set=&methods=&a=&b=&metric=   metrics, Recall@k curves, per-query ranks, paired Δ
 *   GET  /api/eval/progress?set=&methods=   topics done per method while an evaluation runs
 *   GET  /api/compare/runs?runs=a,b,c       N runs: figures, key-by-key config diff, overlaid curves, Δ vs the first
 *   GET  /api/run/calls?run=&item=          the item's LLM calls (recorded exchanges, else as its trace shows them)
 *   GET  /api/passage?id=                   a passage's text and metadata, and the run items whose traces hold it
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { VERSION } from '../../core/version.js';
import { contestBodySchema, contestGraph, graphQuerySchema, graphView, listGraphs } from './acal-api.js';
import { loadAssets, type Assets } from './assets.js';
import { negotiate, type Encoding } from './content-encoding.js';
import { questionsQuerySchema, runQuestions, runTrace, traceQuerySchema } from './case-run-api.js';
import { allowedHostNames, refuseReason } from '../../serve/http/host-guard.js';
import { HttpError, noQueryParams, notFound, queryParams, readJsonBody, sendBytes, sendError, sendJson, validate } from '../../serve/http/http-util.js';
import { requestLife } from '../../serve/http/request-life.js';
import { openIndexContext, type IndexContext } from './index-context.js';
import { createScrubber } from '../../serve/http/public-json.js';
import { findRun, inRunsTable, listRuns, listRunsWithin, notSearchedText, RUNS_LISTED } from './runs.js';
import { evidence, evidenceBodySchema, explainHit, explainQuerySchema, search, searchQuerySchema } from './search-api.js';
import { z } from 'zod';
import { compareQuerySchema, compareRunsView } from './compare-api.js';
import { evalSets, type TopicsQrelsLoader, type UserEvalSet } from './eval-sets.js';
import { createRetrievalEval, retrievalEvalQuerySchema } from './retrieval-eval-api.js';
import { runPage, runSummary } from './run-summary-api.js';
import { compareManyRuns, compareRunsQuerySchema, comparedIds } from './compare-runs-api.js';
import { runCalls } from './llm-calls-api.js';
import { passagePage, passageQuerySchema } from './passage-api.js';
import { evalProgressQuerySchema } from './retrieval-eval-api.js';
import { DEFAULT_K, SEARCH_K } from '../../retrieval/default-k.js';
import { SYSTEMS, type SystemPlugin, type SystemSpec } from '../../eval/systems.js';
import '../../agents/systems.js'; // the one list of agent systems: hands itself to eval (systemSpec, headline figures, report sections)

export interface ExplorerOptions {
  index?: string;
  runs?: string;
  host?: string;
  /** 0 = any free port. */
  port?: number;
  /** Chat model for the LLM advocate (evidence mode "llm"); none = offline only. */
  llm?: BaseChatModel;
  /** Shown in /api/info (never the endpoint or key). */
  llmLabel?: string;
  /** The user's topics+qrels sets for the retrieval-evaluation view (besides the bundled Bar Exam QA splits). */
  evalSets?: UserEvalSet[];
  /** Reader for those sets (default: eval-sets.ts readTopicsQrels). */
  topicsLoader?: TopicsQrelsLoader;
}

export interface ExplorerServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const runQuerySchema = z.object({ run: z.string().min(1).max(500) }).strict();

export async function startExplorer(opts: ExplorerOptions = {}): Promise<ExplorerServer> {
  const host = opts.host ?? '127.0.0.1';
  const ix: IndexContext | undefined = opts.index ? await openIndexContext(opts.index) : undefined;
  const assets: Assets = await loadAssets();
  // every answer from the index is of the index on disk: one rebuilt since the server opened it is refused (restart), not served as it was
  const needIndex = (): IndexContext => {
    if (!ix) throw notFound('this server was started without --index');
    ix.assertCurrent();
    return ix;
  };
  const passageText = async (id: string) => (ix ? (ix.assertCurrent(), await ix.docs.get(id))?.text : undefined);
  const indexName = ix ? basename(ix.dir) : undefined;
  const scrub = createScrubber([
    [opts.runs, 'runs'],
    [ix?.dir, indexName ?? 'index'],
  ]);

  const retrievalEval = ix ? createRetrievalEval(ix, evalSets(opts.evalSets, opts.topicsLoader)) : undefined;
  const needEval = () => {
    if (!retrievalEval) throw notFound('this server was started without --index');
    ix?.assertCurrent();
    return retrievalEval;
  };
  type Handler = (req: IncomingMessage, url: URL) => Promise<unknown>;
  const get = new Map<string, Handler>(
    Object.entries({
      '/api/info': async (_req, url) => (
        validate(noQueryParams, queryParams(url), 'info'),
        {
          version: VERSION,
          index: ix
            ? { name: indexName, corpus: ix.manifest.corpus.name, passages: ix.manifest.corpus.passages, methods: ix.methods, analyzer: ix.manifest.analyzer }
            : null,
          runs: opts.runs ? true : false,
          llm: opts.llm ? { available: true, label: opts.llmLabel ?? 'configured model' } : { available: false },
          defaults: { searchK: SEARCH_K, evidenceK: DEFAULT_K },
          // the system list (eval/systems.ts): names, trace views, report sections, what each run takes
          systems: SYSTEMS.map((sy: SystemSpec & Partial<SystemPlugin>) => ({
            id: sy.id,
            name: sy.name,
            traceKind: sy.traceKind,
            reportSection: sy.reportSection,
            takesIndex: sy.run?.takesIndex ?? false,
            runnable: sy.run !== undefined,
            variants: sy.variants ?? [],
          })),
        }
      ),
      '/api/search': async (_req, url) => search(needIndex(), validate(searchQuerySchema, queryParams(url), 'search')),
      '/api/explain': async (_req, url) => explainHit(needIndex(), validate(explainQuerySchema, queryParams(url), 'explain')),
      '/api/runs': async (_req, url) => (
        validate(noQueryParams, queryParams(url), 'runs'), { runs: opts.runs ? (await listRuns(opts.runs)).map(({ dir: _dir, root: _root, ...r }) => r) : [] }
      ),
      '/api/run/questions': async (_req, url) => {
        const q = validate(questionsQuerySchema, queryParams(url), 'questions');
        return runQuestions(await findRun(opts.runs, q.run), q.filter);
      },
      '/api/run/trace': async (_req, url) => {
        const q = validate(traceQuerySchema, queryParams(url), 'trace');
        return runTrace(await findRun(opts.runs, q.run), q.item, passageText);
      },
      '/api/runs/summary': async (_req, url) => {
        validate(noQueryParams, queryParams(url), 'runs summary');
        const listed = opts.runs ? await listRunsWithin(opts.runs) : { runs: [], truncated: false };
        return {
          runs: await Promise.all(listed.runs.filter(inRunsTable).map(runSummary)),
          ...(listed.truncated ? { truncated: { limit: RUNS_LISTED } } : {}),
          ...(listed.notSearched ? { notSearched: { ...listed.notSearched, note: notSearchedText(listed.notSearched) } } : {}),
        };
      },
      '/api/run/summary': async (_req, url) => runPage(await findRun(opts.runs, validate(runQuerySchema, queryParams(url), 'run summary').run)),
      '/api/compare': async (_req, url) => {
        const q = validate(compareQuerySchema, queryParams(url), 'compare');
        return compareRunsView(await findRun(opts.runs, q.a), await findRun(opts.runs, q.b));
      },
      '/api/compare/runs': async (_req, url) => {
        const ids = comparedIds(validate(compareRunsQuerySchema, queryParams(url), 'compare').runs);
        return compareManyRuns(await Promise.all(ids.map((id) => findRun(opts.runs, id))));
      },
      '/api/run/calls': async (_req, url) => {
        const q = validate(traceQuerySchema, queryParams(url), 'calls');
        return runCalls(await findRun(opts.runs, q.run), q.item);
      },
      '/api/passage': async (_req, url) => passagePage(ix && needIndex(), opts.runs, validate(passageQuerySchema, queryParams(url), 'passage').id),
      '/api/eval/progress': async (_req, url) => needEval().progress(validate(evalProgressQuerySchema, queryParams(url), 'eval progress')),
      '/api/eval/sets': async (_req, url) => (validate(noQueryParams, queryParams(url), 'eval sets'), needEval().sets()),
      '/api/eval/retrieval': async (_req, url) => needEval().evaluate(validate(retrievalEvalQuerySchema, queryParams(url), 'retrieval eval')),
      '/api/acal/graphs': async (_req, url) => {
        const q = validate(runQuerySchema, queryParams(url), 'graphs');
        const run = await findRun(opts.runs, q.run);
        return { run: { id: run.id }, graphs: run.graphs ? listGraphs(run) : [] };
      },
      '/api/acal/graph': async (_req, url) => {
        const q = validate(graphQuerySchema, queryParams(url), 'graph');
        return graphView(await findRun(opts.runs, q.run), q.item);
      },
    } satisfies Record<string, Handler>),
  );
  const post = new Map<string, Handler>(
    Object.entries({
      '/api/evidence': async (req) => evidence(needIndex(), validate(evidenceBodySchema, await readJsonBody(req), 'evidence'), opts.llm),
      '/api/acal/contest': async (req) => {
        const body = validate(contestBodySchema, await readJsonBody(req), 'contest');
        return contestGraph(await findRun(opts.runs, body.run), body);
      },
    } satisfies Record<string, Handler>),
  );
  const assetMap = new Map(Object.entries(assets));

  const hostNames = allowedHostNames(host);
  let port = -1; // the bound port, set once the server listens (port 0 = any free port)

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // DNS rebinding / cross-origin guard: before routing, body reading or any file access.
    const refused = refuseReason(req.headers, hostNames, port);
    if (refused) throw new HttpError(403, refused);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (path.startsWith('/api/')) {
      const table = req.method === 'GET' ? get : req.method === 'POST' ? post : undefined;
      const h = table?.get(path);
      if (!h) {
        throw get.has(path) || post.has(path) ? new HttpError(405, `${req.method} not allowed on ${path}`) : notFound(`no API route ${path}`);
      }
      sendJson(res, 200, scrub(await h(req, url)));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, `${req.method} not allowed`);
    const name = path === '/' || path === '/index.html' ? 'index.html' : path.slice(1);
    const a = assetMap.get(name);
    if (!a) throw notFound(`no such page: ${path}`);
    // brotli or gzip by Accept-Encoding (precompressed: content-encoding.ts); Vary so caches keep them apart
    const enc = negotiate(req.headers['accept-encoding'], Object.keys(a.encoded) as Encoding[]);
    if (enc) sendBytes(res, a.type, a.encoded[enc]!, { 'content-encoding': enc, vary: 'Accept-Encoding' });
    else sendBytes(res, a.type, a.body, Object.keys(a.encoded).length ? { vary: 'Accept-Encoding' } : {});
  };

  const server = createServer((req, res) => {
    const life = requestLife(req, res);
    handle(req, res).catch((e) => {
      if (life.gone(e)) return life.note('explorer', false); // the client went away: one line, no stack
      if (!res.headersSent) sendError(res, e, scrub.text);
      else res.end();
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 8080, host, () => resolveListen());
  });
  const addr = server.address() as AddressInfo;
  port = addr.port;
  const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shown}:${addr.port}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await ix?.close();
    },
  };
}
