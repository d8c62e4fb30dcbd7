/**
 * Warnings for settings under which a method is degenerate (a self-consistency vote at temperature
 * 0, a jury of one, a one-round debate). Apart from paper-settings.ts, which reads the system list,
 * so that a system's command run (agents/<system>/cli-run.ts, loaded by its plugin) can use them
 * without an import circle.
 */
/** A system's id or variant (paper-settings.ts PaperSystem). */
type PaperSystem = string;

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
