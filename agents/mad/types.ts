/** Shapes of a multi-agent debate (MAD, paper 002): evidence, briefs, citations, judgment, trace. */

export type Topology = 'full' | 'sparse';

/** One passage of the shared evidence pool (Round 0) or a snippet a debater requested. */
export interface PoolPassage {
  id: string;
  text: string;
  /** The query that retrieved it (Round 0: the option-specific query; rebuttal: the debater's request). */
  query: string;
  /** The doc store had no text for it: `text` is the search hit's snippet (at most 600 characters, itself a cut), counted as cut. */
  fromSnippet?: true;
}

/** One cited claim as the debater wrote it. */
export interface Claim {
  text: string;
  /** The real ids of the passages cited by a handle the model was shown. */
  cites: string[];
  /**
   * The citations that named no handle shown ("P3, P5", "P99", a real id written out), as written: never a
   * passage (checked as not in the index and not seen; shown back to a model as no handle). Absent when none,
   * and in a trace written before 2026-12-01's evening, whose `cites` keep them as written.
   */
  unresolved?: string[];
}

/** A citation after checking: does the id exist in the index, had the author seen it, does it support the claim. */
export interface CheckedCitation {
  id: string;
  claim: string;
  /** The id is in the index doc store. */
  exists: boolean;
  /** The author had the passage in view (pool or its own request) when citing it. */
  seen: boolean;
  /** Lexical support check (see citation-check.ts); false when the passage does not exist. */
  supportive: boolean;
  /** Share of the claim's content terms found in the passage. */
  overlap: number;
  /** A citation that named no passage handle shown (Claim `unresolved`): `id` is the text as written. */
  unresolved?: true;
}

export interface Brief {
  letter: string;
  round: number;
  /** Round 1: opening; later rounds: rebuttal of the strongest opposing point. */
  kind: 'opening' | 'rebuttal';
  /** Letters of the opponents whose previous briefs this debater saw (empty in the opening). */
  saw: string[];
  argument: string;
  rebuttal?: string;
  claims: Claim[];
  citations: CheckedCitation[];
  /**
   * The one new snippet requested from the retriever this round, if any. `passageChars`: the
   * characters of it the tool result showed (absent in traces written before lexcase counted the
   * cut); `cutFrom`: the snippet's whitespace-collapsed length when it was longer (requests return one passage);
   * `fromSnippet`: the doc store had no text, the search snippet was shown instead (counted as cut).
   * `rule` "new-only" (new-snippet.ts): the search ran at `k` and `ids` is the highest-ranked hit the
   * debater had not been shown, after `skipped` hits it had; `ids` empty: every hit was shown (the
   * tool said "no new passage"). No `rule`: a trace of the k = 1 rule (its top hit, shown or not).
   */
  request?: {
    tool: string;
    query: string;
    ids: string[];
    rule?: 'new-only';
    k?: number;
    skipped?: number;
    passageChars?: number;
    cutFrom?: number;
    fromSnippet?: true;
  };
  /** Set when the debater's reply was unparseable twice: it forfeits this round (empty brief). */
  error?: string;
  raw?: string[];
  /** Tool calls whose arguments were not valid JSON (structuredOutput "tool"). */
  invalidToolCalls?: { name?: string; args?: string; error?: string }[];
  /** Snippet requests this turn that were refused and never ran (another tool, extra calls, a tool call written as text). */
  refused?: { name: string; reason: string }[];
}

export interface CrossExamination {
  questions: { letter: string; question: string; answer: string }[];
  error?: string;
}

export const CHECKLIST_ITEMS = ['doctrine_named', 'on_point_authority', 'accurate_use', 'logical_application', 'opponent_addressed'] as const;
export type ChecklistItem = (typeof CHECKLIST_ITEMS)[number];

export interface Judgment {
  verdict: string;
  rationale: [string, string, string];
  checklist: Record<ChecklistItem, boolean>;
  /** Ids cited by the winning brief that the judge says do not support its claims. */
  unsupported: string[];
  /** What the judge listed as unsupported that names no passage handle it was shown, as written (not a passage: it marks none). */
  unsupportedUnresolved?: string[];
  /**
   * Passages outside the pool whose text the judge was shown: those the briefs it read cite (snippets
   * debaters requested). A cited passage neither here nor in the pool was never shown to the judge:
   * it is not counted as judge-supported.
   */
  snippets: string[];
  raw?: string[];
}

export interface MadSettings {
  rounds: number;
  topology: Topology;
  crossExaminer: boolean;
  /** Passages per Round-0 query and the k of rebuttal requests' source tool (a request returns one passage: new-snippet.ts). */
  k: number;
  /** Retrieval method for Round 0 (its <method>_search tool). */
  method: string;
  /** Characters of passage text shown per passage. */
  passageChars: number;
  /** Also judge after each earlier round (rounds ablation from one debate, paper H3). */
  judgeEachRound: boolean;
}
