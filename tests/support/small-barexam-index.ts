/**
 * A small index for process tests that run a system on the first Bar Exam QA val items: the gold
 * passages of the first `items` questions, the first 150 legal-corpus passages and any `extra`
 * passages (bm25 + qld, built in this process).
 */
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';

export async function buildSmallBarexamIndex(out: string, o: { items?: number; extra?: readonly Passage[] } = {}): Promise<void> {
  const gold = new Set((await loadQuestions('barexam', 'val')).slice(0, o.items ?? 1).flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [...(o.extra ?? [])];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 150) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out, corpusName: 'test', workers: 0 },
  );
}
