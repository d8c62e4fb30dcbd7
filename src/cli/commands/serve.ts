/**
 * `lexcase serve [--index DIR] [--runs DIR] [--port N] [--host 127.0.0.1]`: the evidence and
 * argument explorer, a local web app (search, CASE run traces, ACAL argument graphs) served from
 * the project's own built assets. The server is web/server/server.ts (startExplorer); it answers
 * only to requests whose Host names the bound address or a loopback name (serve/http/host-guard.ts).
 *
 * `lexcase serve --api [--index DIR | --index NAME=DIR …] [--runs DIR] [--token-file FILE]`: instead of the explorer, the
 * versioned JSON API under /v1 (search, explain, passage, evidence; with --runs the runs' headline figures; OpenAPI 3.1 at
 * /v1/openapi.json; src/api/server.ts) over the query service. Without --index: the bundled default
 * index. A non-loopback --host needs a token (LEXCASE_API_TOKEN or --token-file: src/cli/api-token.ts), else it refuses to start.
 */
import type { Command } from 'commander';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { action, output, parseIntOpt, type GlobalOpts } from '../action.js';
import { addLlmOptions, type LlmCliOpts } from '../llm-options.js';
import { collectIndex, openServiceFromFlags, resolveServerLlm } from '../query-service-flags.js';
import { addTokenOptions, type TokenFlags } from '../api-token.js';
import { untilStopped } from '../until-stopped.js';

interface ServeFlags extends LlmCliOpts, TokenFlags {
  index?: string[];
  api?: boolean;
  runs?: string;
  port: number;
  host: string;
  topics?: string;
  qrels?: string;
}

export function register(program: Command): void {
  addLlmOptions(
    addTokenOptions(
      program
        .command('serve')
        .description('local web app: search an index, find evidence for a hypothesis, browse CASE traces, contest ACAL argument graphs')
        .option(
          '--index <dir>',
          'index directory to search (from `lexcase index build` or `lexcase demo`); with --api: repeatable, NAME=DIR names it',
          collectIndex,
        )
        .option(
          '--runs <dir>',
          'directory holding run directories (CASE runs, ACAL runs with argument graphs); with --api: GET /v1/runs and /v1/run serve their headline figures',
        )
        .option('--port <n>', 'port (0 = any free port)', parseIntOpt('port', { min: 0, max: 65535 }), 8080)
        .option('--topics <file>', 'topics for the retrieval-evaluation view: "id<TAB>query" lines or JSONL {id, text} (with --qrels)')
        .option('--qrels <file>', 'TREC qrels ("qid iter docid rel") for --topics')
        .option('--host <addr>', 'address to bind (default loopback only); requests must name it (or 127.0.0.1, localhost, [::1]) in Host', '127.0.0.1')
        .option(
          '--api',
          'serve the versioned JSON API (/v1/search, /v1/explain, /v1/passage, /v1/evidence, /v1/runs, /v1/run, /v1/openapi.json) instead of the explorer',
        ),
      'with --api',
    ),
    { replay: false },
  ).action(
    action(async (flags: ServeFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      if (flags.port < 0 || flags.port > 65535) throw errors.invalidInput('--port', `expected 0..65535, got ${flags.port}`);
      if (flags.api) return serveApi(flags, g);
      if (flags.token !== undefined || flags.tokenFile !== undefined)
        throw errors.usage(`${flags.token !== undefined ? '--token' : '--token-file'} goes with --api (the explorer is for this machine: bind it to loopback)`);
      if ((flags.index?.length ?? 0) > 1) throw errors.usage('the explorer searches one --index; several go with --api');
      const index = flags.index?.[0];
      if (!index && !flags.runs) throw errors.usage('give --index DIR and/or --runs DIR');
      if (flags.runs) await (await import('../../../web/server/runs-root.js')).checkRunsRoot(flags.runs);
      if (flags.host !== '127.0.0.1' && flags.host !== 'localhost' && flags.host !== '::1')
        log.warn(`binding to ${flags.host}: anyone who can reach this address can contest the argument graphs under --runs`);
      if (flags.host === '0.0.0.0' || flags.host === '::')
        log.warn(
          `--host ${flags.host}: requests are answered only when their Host names 127.0.0.1, localhost, [::1] or ${flags.host}; to serve other machines, give --host this machine's address`,
        );
      if (!!flags.topics !== !!flags.qrels) throw errors.usage('--topics and --qrels go together', 'give both files, or neither');
      const llm = await resolveServerLlm(flags);
      const { startExplorer } = await import('../../../web/server/server.js');
      const s = await startExplorer({
        index,
        runs: flags.runs,
        host: flags.host,
        port: flags.port,
        llm: llm.model,
        // the model's own name: a model file's is <file>@sha256:… (an environment's model name beside it is not used)
        llmLabel: llm.model ? ((llm.model as { model?: string }).model ?? llm.config.llm.model) : undefined,
        evalSets: flags.topics && flags.qrels ? [{ topics: flags.topics, qrels: flags.qrels }] : [],
      });
      const stopped = untilStopped(s.close); // listening for the signals before the start line is printed
      output(g, { url: s.url, index: index ?? null, runs: flags.runs ?? null, llm: !!llm.model }, () => `lexcase explorer at ${s.url}  (Ctrl-C to stop)`);
      await stopped;
    }),
  );
}

async function serveApi(flags: ServeFlags, g: GlobalOpts): Promise<void> {
  if (flags.topics || flags.qrels) throw errors.usage('--api serves the JSON API only: --topics and --qrels are for the explorer (run it separately)');
  const { svc, specs, llm, token } = await openServiceFromFlags(flags, { host: flags.host, command: 'lexcase serve --api' });
  const { startApiServer } = await import('../../api/server.js');
  try {
    const s = await startApiServer(svc, { host: flags.host, port: flags.port, token, indexes: specs, runs: flags.runs });
    const stopped = untilStopped(s.close);
    output(
      g,
      { url: `${s.url}/v1`, openapi: `${s.url}/v1/openapi.json`, indexes: svc.indexNames, runs: flags.runs ?? null, llm: !!llm, token: !!token },
      () => `lexcase API at ${s.url}/v1 (OpenAPI 3.1: ${s.url}/v1/openapi.json; indexes: ${svc.indexNames.join(', ')})  (Ctrl-C to stop)`,
    );
    await stopped;
  } finally {
    await svc.close();
  }
}
