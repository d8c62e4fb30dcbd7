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

type Sampling = { temperature: number; topP?: number; maxTokens?: number };

/**
 * `llm` with the paper's values for every key the user did not set (`explicit`: the keys the config
 * file or environment gave). Returns the effective settings and the keys taken from the paper.
 */
export function applyPaperSampling<T extends Sampling>(
  system: PaperSystem,
  llm: T,
  explicit: readonly string[],
): { llm: T; fromPaper: string[]; source: string } {
  const p = PAPER_SAMPLING[system] ?? { source: `no paper settings for ${system}: the LLM layer default is kept` };
  const out = { ...llm };
  const fromPaper: string[] = [];
  for (const key of ['temperature', 'topP', 'maxTokens'] as const) {
    if (p[key] === undefined || explicit.includes(key)) continue;
    (out as Sampling)[key] = p[key]!;
    fromPaper.push(key);
  }
  return { llm: out, fromPaper, source: p.source };
}

export interface MethodSettings {
  temperature?: number;
  samples?: number;
  jurors?: number;
  rounds?: number;
}

/** Warnings for settings under which a method is degenerate (printed on stderr and recorded in config.json). */
export function degeneracyWarnings(system: PaperSystem, s: MethodSettings): string[] {
  const w: string[] = [];
  if (system === 'self-consistency') {
    if ((s.samples ?? 5) > 1 && s.temperature === 0)
      w.push(
        `self-consistency at temperature 0 draws ${s.samples ?? 5} (near-)identical samples: the vote is one answer repeated. Set llm.temperature > 0 (default 0.7 when unset).`,
      );
    if (s.samples === 1) w.push('self-consistency with 1 sample is single-rag: there is no vote.');
  }
  if (system === 'case' && s.jurors !== undefined && s.jurors < 3)
    w.push(
      `a jury of ${s.jurors} (the paper samples 3 of 5 personas): ${s.jurors === 1 ? 'one persona decides alone, there is no majority vote' : 'two jurors can only agree or tie'}.`,
    );
  if (system === 'mad' && s.rounds === 1)
    w.push('MAD with 1 round has no rebuttal: debaters never see each other, the debate reduces to parallel openings judged once.');
  return w;
}
