/**
 * Each system's published LLM sampling settings (issue 15, item 5), used as that system's defaults
 * where the config file and environment leave a setting unset (they still override), and the
 * warnings for settings that make a method degenerate. The sources are the papers in
 * docs/validity.md; a system whose paper gives no value keeps the LLM layer's default.
 */
export type PaperSystem = 'case' | 'baseline' | 'mad' | 'single-rag' | 'self-consistency' | 'acal' | 'emar' | 'threeply';

export interface PaperSampling {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** Where the values come from (recorded in config.json). */
  source: string;
}

export const PAPER_SAMPLING: Record<PaperSystem, PaperSampling> = {
  case: {
    temperature: 0.3,
    source: "CASE (paper 003) gives no temperature for the agents (LLaMA 3 70B via DSPy, §5.3); 0.3 is its baselines' (§4.1, §5.3: llama-3.3-70b-instruct at sampling temperature 0.3), used for the agents too so agents and baselines run at one temperature",
  },
  baseline: { temperature: 0.3, source: 'CASE (paper 003) §4.1 and §5.3: baselines 1-4 (llama-3.3-70b-instruct) at sampling temperature 0.3' },
  mad: { source: 'MAD (paper 002) publishes no sampling settings: the LLM layer default (temperature 0) is kept' },
  'single-rag': { source: 'MAD (paper 002) publishes no sampling settings: the LLM layer default (temperature 0) is kept' },
  'self-consistency': {
    temperature: 0.7,
    source: 'MAD (paper 002) §3.6 votes among m sampled answers but gives no temperature; 0.7 is the usual self-consistency setting (Wang et al. 2023)',
  },
  acal: { source: 'ACAL (paper 001) publishes no sampling settings (Gemini 2.5 defaults): the LLM layer default (temperature 0) is kept' },
  emar: { temperature: 0.1, topP: 0.9, maxTokens: 2048, source: 'EMAR (paper 004), Experiment, "Baselines": all models at temperature 0.1, top-p 0.9, max_tokens 2048' },
  threeply: { topP: 1, maxTokens: 1000, source: '3-ply (paper 000) §4.1: max_tokens 1000, top_p 1 (no generation temperature given); evaluator at temperature 0' },
};

type Sampling = { temperature: number; topP?: number; maxTokens?: number };

/**
 * `llm` with the paper's values for every key the user did not set (`explicit`: the keys the config
 * file or environment gave). Returns the effective settings and the keys taken from the paper.
 */
export function applyPaperSampling<T extends Sampling>(system: PaperSystem, llm: T, explicit: readonly string[]): { llm: T; fromPaper: string[]; source: string } {
  const p = PAPER_SAMPLING[system];
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
      w.push(`self-consistency at temperature 0 draws ${s.samples ?? 5} (near-)identical samples: the vote is one answer repeated. Set llm.temperature > 0 (default 0.7 when unset).`);
    if (s.samples === 1) w.push('self-consistency with 1 sample is single-rag: there is no vote.');
  }
  if (system === 'case' && s.jurors !== undefined && s.jurors < 3)
    w.push(`a jury of ${s.jurors} (the paper samples 3 of 5 personas): ${s.jurors === 1 ? 'one persona decides alone, there is no majority vote' : 'two jurors can only agree or tie'}.`);
  if (system === 'mad' && s.rounds === 1) w.push('MAD with 1 round has no rebuttal: debaters never see each other, the debate reduces to parallel openings judged once.');
  return w;
}
