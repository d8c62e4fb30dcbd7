/**
 * Advocate evidence recall, the retrieval measure CASE (§5.2, §5.4) calls ill-defined for agents and
 * lexcase makes measurable from traces. For a question with gold passage ids G and gold answer a:
 * - goldInCorrectEvidence: some gold id is in the evidence of an advocate whose hypothesis stands
 *   for option a;
 * - goldInAnyEvidence: some gold id is in any advocate's evidence;
 * - goldEverReturned: some gold id was returned by any tool call (searched-and-seen).
 * null when the question has no gold passages. Matching is by id (the caller may pass extra ids
 * that are known duplicates of a gold text).
 */
/**
 * Each flag's rate in words, the one wording of every surface that prints it (CASE's metrics table in
 * the CLI and report.md, the headline figure in report.md's Figures, the explorer, compare and /v1).
 */
export const EVIDENCE_RECALL_LABELS = {
  goldInCorrectEvidence: "gold in correct hypothesis's evidence",
  goldInAnyEvidence: "gold in any advocate's evidence",
  goldEverReturned: 'gold ever returned by a tool call',
} as const;

export interface TraceAdvocate {
  letter: string | null;
  evidence: { id: string }[];
  toolCalls: { ids: string[] }[];
}

export interface EvidenceRecall {
  goldInCorrectEvidence: boolean | null;
  goldInAnyEvidence: boolean | null;
  goldEverReturned: boolean | null;
}

export function evidenceRecall(advocates: TraceAdvocate[], goldIds: string[], answer: string): EvidenceRecall {
  if (goldIds.length === 0) return { goldInCorrectEvidence: null, goldInAnyEvidence: null, goldEverReturned: null };
  const gold = new Set(goldIds);
  const hasGold = (ids: string[]) => ids.some((id) => gold.has(id));
  return {
    goldInCorrectEvidence: advocates.some((a) => a.letter === answer && hasGold(a.evidence.map((e) => e.id))),
    goldInAnyEvidence: advocates.some((a) => hasGold(a.evidence.map((e) => e.id))),
    goldEverReturned: advocates.some((a) => a.toolCalls.some((c) => hasGold(c.ids))),
  };
}
