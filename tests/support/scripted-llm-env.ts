/**
 * The LLM endpoint of an in-process `runCli` run (tests/support/run-cli.ts), set with vi.stubEnv so
 * that nothing of the test's own environment (an OPENAI_API_KEY, a LEXCASE_LLM_BASE_URL) reaches the
 * client: undo it with vi.unstubAllEnvs() in an afterEach.
 */
import { vi } from 'vitest';

/** The variables that could point the client at another endpoint, model or key. */
export const LLM_VARS = ['LEXCASE_LLM_BASE_URL', 'OPENAI_BASE_URL', 'LEXCASE_LLM_MODEL', 'LEXCASE_LLM_API_KEY', 'OPENAI_API_KEY'] as const;

/** Every LLM_VARS unset, then the client pointed at `url` (a scripted server on 127.0.0.1), model "scripted". */
export function useScriptedLlm(url: string): void {
  for (const v of LLM_VARS) vi.stubEnv(v, undefined as unknown as string);
  vi.stubEnv('LEXCASE_LLM_BASE_URL', url);
  vi.stubEnv('LEXCASE_LLM_MODEL', 'scripted');
}
