/**
 * What `lexcase mcp` and `lexcase serve --api` share: the bearer token (--token, else
 * LEXCASE_API_TOKEN; required off loopback when serving HTTP), the indexes (repeatable --index DIR |
 * NAME=DIR; none: the bundled default index, built on first use) and the optional LLM, opened as one
 * query service. Everything heavy is imported here, when a command runs, not when the CLI starts.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { log } from '../../core/log.js';
import type { IndexSpec } from '../service/index-specs.js';
import type { QueryService } from '../service/query-service.js';
import { resolveLlm, type LlmCliOpts } from './llm-options.js';

export interface ServiceFlags extends LlmCliOpts {
  index?: string[];
  token?: string;
}

export interface OpenedService {
  svc: QueryService;
  specs: IndexSpec[];
  llm?: BaseChatModel;
  token?: string;
}

/** `http`: the address the command will bind (checked for the token rule before anything opens). */
export async function openServiceFromFlags(flags: ServiceFlags, http: { host: string; command: string } | undefined): Promise<OpenedService> {
  const token = flags.token ?? (process.env.LEXCASE_API_TOKEN || undefined);
  if (http) {
    const { requireTokenOffLoopback } = await import('../api/auth.js');
    requireTokenOffLoopback(http.host, token, http.command);
  }
  const { indexSpecs } = await import('../service/index-specs.js');
  let specs = indexSpecs(flags.index ?? []);
  if (specs.length === 0) {
    const { ensureDefaultIndex } = await import('../../retrieval/default-index.js');
    specs = [{ name: 'default', dir: await ensureDefaultIndex(undefined, (line) => log.info(line)) }];
  }
  const llm = await resolveLlm(flags, { optional: true });
  const { openQueryService } = await import('../service/query-service.js');
  return { svc: await openQueryService({ indexes: specs, llm: llm.model }), specs, llm: llm.model, token };
}

/** commander collector for a repeatable --index. */
export const collectIndex = (value: string, previous: string[] = []): string[] => [...previous, value];
