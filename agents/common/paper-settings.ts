/**
 * Each system's published LLM sampling settings (issue 15, item 5), used as that system's defaults
 * where the config file and environment leave a setting unset (they still override), and the
 * warnings for settings that make a method degenerate. The sources are the papers in
 * docs/validity.md, each written in its system's plugin.ts; a system whose paper gives no value keeps the LLM layer's default.
 */
import type { PaperSampling } from '../../eval/systems.js';
import { AGENT_SYSTEMS } from '../systems.js';

export type { PaperSampling };
/** A key of PAPER_SAMPLING: a system's id, or a variant its paper gives settings for ('single-rag', 'self-consistency'): whatever the plugins' `paper` objects name. */
export type PaperSystem = string;

/** Every system's paper settings, gathered from the system list (each plugin's `paper`, beside its system). */
export const PAPER_SAMPLING: Readonly<Record<string, PaperSampling>> = Object.assign({}, ...AGENT_SYSTEMS.map((p) => p.paper));

/** The paper whose sampling the evidence surfaces use (`lexcase evidence`, serve, mcp, findEvidence, the query service: the CASE advocate, as in run case). */
export const EVIDENCE_PAPER: PaperSystem = 'case';

type Sampling = { temperature: number; topP?: number; maxTokens?: number };

/**
 * `llm` with the system's values for every key the user did not set (`explicit`: the keys the config
 * file or environment gave). Returns the effective settings, the keys taken from the paper and the
 * keys given lexcase's own default where the paper gives none (`PaperSampling.lexcaseDefault`).
 */
export function applyPaperSampling<T extends Sampling>(
  system: PaperSystem,
  llm: T,
  explicit: readonly string[],
): { llm: T; fromPaper: string[]; lexcaseDefaults: string[]; source: string } {
  const p = PAPER_SAMPLING[system] ?? { source: `no paper settings for ${system}: the LLM layer default is kept` };
  const out = { ...llm };
  const fromPaper: string[] = [];
  const lexcaseDefaults: string[] = [];
  for (const key of ['temperature', 'topP', 'maxTokens'] as const) {
    if (p[key] === undefined || explicit.includes(key)) continue;
    (out as Sampling)[key] = p[key]!;
    (p.lexcaseDefault?.includes(key) ? lexcaseDefaults : fromPaper).push(key);
  }
  return { llm: out, fromPaper, lexcaseDefaults, source: p.source };
}

export { degeneracyWarnings, type MethodSettings } from './degeneracy.js';
