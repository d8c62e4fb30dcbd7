/**
 * The index of every Bar Exam QA passage (1,149; bm25 + qld, built in this process, corpus "test"),
 * and each passage's text by id: what a test checks a prompt against (was this passage shown whole?).
 * For a smaller index of the first val items' gold passages: small-barexam-index.ts.
 */
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';

export async function buildBarexamIndex(out: string): Promise<{ passages: Passage[]; text: Map<string, string> }> {
  const passages: Passage[] = [];
  const text = new Map<string, string>();
  for await (const p of loadPassages('barexam')) passages.push(p), text.set(p.id, p.text);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out, corpusName: 'test', workers: 0 },
  );
  return { passages, text };
}
