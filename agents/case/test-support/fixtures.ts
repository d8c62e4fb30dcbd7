/**
 * Small realistic fixtures for CASE unit tests: a keyword Retriever over a handful of real Bar Exam
 * QA / FRE passages, LangChain search tools with the retrieval/tools JSON shape
 * ({results:[{id,score,rank,snippet}]}), and a question shaped like mbe_0.
 */
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import type { Question } from '../../../corpora/types.js';
import type { Hit, Retriever } from '../../../retrieval/types.js';

export const PASSAGES: Record<string, string> = {
  fre607: "Rule 607. Who May Impeach a Witness. Any party, including the party that called the witness, may attack the witness's credibility.",
  fre401:
    'Rule 401. Test for Relevant Evidence. Evidence is relevant if it has any tendency to make a fact more or less probable than it would be without the evidence; and the fact is of consequence in determining the action.',
  fre402:
    'Rule 402. General Admissibility of Relevant Evidence. Relevant evidence is admissible unless any of the following provides otherwise. Irrelevant evidence is not admissible.',
  fre608:
    "Rule 608. A Witness's Character for Truthfulness or Untruthfulness. Extrinsic evidence is not admissible to prove specific instances of a witness's conduct in order to attack or support the witness's character for truthfulness.",
  voucher: 'At common law a party vouched for its own witness and could not impeach him; the voucher rule has been abandoned.',
  surprise: 'Some courts required a showing of surprise before a party could impeach its own witness with a prior inconsistent statement.',
  gold0:
    'Rules of evidence determine what types of evidence is admissible. Generally, to be admissible, the evidence must be relevant and not outweighed by countervailing considerations.',
};

export const QUESTION: Question = {
  id: 'mbe_0',
  prompt:
    "Paul, the Plaintiff in a personal injury action, called Wes as a witness to testify that Dan's car ran a red light. Wes, however, testified that Dan's car did not run the light.",
  question: "Paul then called Vic to testify that Dan's car did run the light. The trial judge should rule that Vic's testimony is",
  choices: [
    "admissible because Paul was surprised by Wes's testimony",
    "admissible because Vic's testimony was relevant to material issues",
    'inadmissible because Paul cannot impeach his own witness',
    'inadmissible because Paul is bound by the testimony of his own witness',
  ],
  answer: 'B',
  goldPassageIds: ['gold0'],
};

const words = (s: string) => s.toLowerCase().match(/[a-z]{3,}/g) ?? [];

/** Term-overlap retriever (score = shared distinct words) over `passages`. */
export function keywordRetriever(method: string, passages: Record<string, string> = PASSAGES): Retriever {
  return {
    method,
    async search(query, opts) {
      const q = new Set(words(query));
      const scored = Object.entries(passages)
        .map(([id, text]) => ({ id, score: new Set(words(text).filter((w) => q.has(w))).size }))
        .filter((h) => h.score > 0)
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
        .slice(0, opts?.k ?? 10);
      return scored.map((h, i): Hit => ({ ...h, rank: i + 1 }));
    },
  };
}

export function searchTool(name: string, retriever: Retriever, passages: Record<string, string> = PASSAGES) {
  return tool(
    async ({ query, k }: { query: string; k?: number }) => {
      const hits = await retriever.search(query, { k: k ?? 5 });
      return JSON.stringify({ results: hits.map((h) => ({ ...h, snippet: passages[h.id].slice(0, 200) })) });
    },
    { name, description: `${name}: search the legal corpus`, schema: z.object({ query: z.string(), k: z.number().int().optional() }) },
  );
}

export function without(passages: Record<string, string>, ids: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(passages).filter(([id]) => !ids.includes(id)));
}

export const getPassageFrom = (passages: Record<string, string>) => async (id: string) => (passages[id] !== undefined ? { id, text: passages[id] } : undefined);

/** The handle a tool result showed for the passage whose snippet starts with `start` (models never see ids). */
export const handleOf = (text: string, start: string): string | undefined => new RegExp(`"id":"(P\\d+)","score":[^}]*"snippet":"${start}`).exec(text)?.[1];
