/**
 * `lexcase mcp [--index DIR | --index NAME=DIR …] [--http [--host H] [--port N] [--token-file FILE]]`:
 * an MCP server (Model Context Protocol) over the indexes — tools list_indexes, search, explain,
 * get_passage, find_evidence, and passages as resources lexcase://INDEX/passage/ID (src/mcp/).
 * stdio by default (JSON-RPC on stdin/stdout; logs on stderr); --http serves streamable HTTP at
 * /mcp. Without --index: the bundled default index (built on first use, as `run case` does).
 * The MCP SDK, the indexes and the agents are imported only when the command runs.
 */
import type { Command } from 'commander';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { action, output, parseIntOpt, type GlobalOpts } from '../action.js';
import { addLlmOptions } from '../llm-options.js';
import { collectIndex, openServiceFromFlags, type ServiceFlags } from '../query-service-flags.js';
import { addTokenOptions } from '../api-token.js';
import { untilStopped } from '../until-stopped.js';

interface McpFlags extends ServiceFlags {
  http?: boolean;
  host: string;
  port: number;
}

export const MCP_DEFAULT_PORT = 8765;

export function register(program: Command): void {
  addLlmOptions(
    addTokenOptions(
      program
        .command('mcp')
        .description('MCP server over indexes (stdio, or --http): tools list_indexes, search, explain, get_passage, find_evidence; passages as resources')
        .option('--index <dir>', 'index directory, or NAME=DIR; repeat for several (default: the bundled default index, built on first use)', collectIndex)
        .option('--http', 'serve streamable HTTP at /mcp instead of stdio')
        .option(
          '--host <addr>',
          'with --http: address to bind (default loopback only; any other address needs a token: LEXCASE_API_TOKEN or --token-file)',
          '127.0.0.1',
        )
        .option('--port <n>', `with --http: port (0 = any free port)`, parseIntOpt('port', { min: 0, max: 65535 }), MCP_DEFAULT_PORT),
      'with --http',
    ),
    { replay: false },
  ).action(
    action(async (flags: McpFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      if (!flags.http) {
        const httpOnly = ['host', 'port', 'token', 'tokenFile'].filter((o) => cmd.getOptionValueSource(o) === 'cli');
        if (httpOnly.length)
          throw errors.usage(
            `${httpOnly.map((o) => `--${o.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(', ')} ${httpOnly.length > 1 ? 'go' : 'goes'} with --http (stdio has no address)`,
          );
      }
      const { svc, specs, llm, token } = await openServiceFromFlags(flags, flags.http ? { host: flags.host, command: 'lexcase mcp --http' } : undefined);
      try {
        const what = `${specs.map((s) => s.name).join(', ')}${llm ? '; find_evidence can use the configured LLM' : '; find_evidence offline only (no LLM configured)'}`;
        if (!flags.http) {
          const { serveMcpStdio } = await import('../../mcp/stdio.js');
          log.info(`lexcase MCP server on stdio: ${what}`);
          await serveMcpStdio(svc);
          return;
        }
        const { startMcpHttp } = await import('../../mcp/http.js');
        const s = await startMcpHttp(svc, { host: flags.host, port: flags.port, token });
        const stopped = untilStopped(s.close); // listening for the signals before the start line is printed
        output(
          g,
          { url: s.url, indexes: svc.indexNames, llm: !!llm, token: !!token },
          () => `lexcase MCP server at ${s.url} (streamable HTTP): ${what}  (Ctrl-C to stop)`,
        );
        await stopped;
      } finally {
        await svc.close();
      }
    }),
  );
}
