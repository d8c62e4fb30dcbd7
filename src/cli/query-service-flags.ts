/**
 * What `lexcase mcp` and `lexcase serve --api` share: the bearer token (LEXCASE_API_TOKEN or
 * --token-file, src/cli/api-token.ts; required off loopback when serving HTTP), the indexes (repeatable --index DIR |
 * NAME=DIR; none: the bundled default index, built on first use) and the optional LLM, opened as one
 * query service. Everything heavy is imported here, when a command runs, not when the CLI starts.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { log } from '../../core/log.js';
import type { IndexSpec } from '../../serve/query/index-specs.js';
import type { QueryService } from '../../serve/query/query-service.js';
import { apiToken, type TokenFlags } from './api-token.js';
import { EVIDENCE_PAPER, resolveLlm, type LlmCliOpts } from './llm-options.js';
import { collecting } from './lexcase-command.js';

export interface ServiceFlags extends LlmCliOpts, TokenFlags {
  index?: string[];
}

export interface OpenedService {
  svc: QueryService;
  specs: IndexSpec[];
  llm?: BaseChatModel;
  token?: string;
}

/** `http`: the address the command will bind (checked for the token rule before anything opens). */
export async function openServiceFromFlags(flags: ServiceFlags, http: { host: string; command: string } | undefined): Promise<OpenedService> {
  const { token, source } = http ? apiToken(flags) : { token: undefined, source: '' };
  if (http) {
    const { requireTokenOffLoopback } = await import('../../serve/http/auth.js');
    requireTokenOffLoopback(http.host, token, http.command, source);
  }
  const { indexSpecs } = await import('../../serve/query/index-specs.js');
  let specs = indexSpecs(flags.index ?? []);
  if (specs.length === 0) {
    const { ensureDefaultIndex } = await import('../../retrieval/default-index.js');
    specs = [{ name: 'default', dir: await ensureDefaultIndex(undefined, (line) => log.info(line)) }];
  }
  const llm = await resolveServerLlm(flags);
  const { openQueryService } = await import('../../serve/query/query-service.js');
  return { svc: await openQueryService({ indexes: specs, llm: llm.model }), specs, llm: llm.model, token };
}

/**
 * The LLM of a server (serve, serve --api, mcp): optional, and an unreachable one is a warning (the
 * server starts). Its one use is the CASE advocate (find_evidence), run at CASE's sampling as `run case`
 * and `lexcase evidence` run it (temperature 0.3 unless llm.temperature is set).
 */
export const resolveServerLlm = (flags: LlmCliOpts) => resolveLlm(flags, { optional: true, preflight: 'warn', paper: EVIDENCE_PAPER });

/** commander collector for a repeatable --index. */
export const collectIndex = collecting((value: string, previous: string[] = []): string[] => [...previous, value]);
