/**
 * A small index for tests that run a system on the first Bar Exam QA val items: the gold passages of
 * the first `items` questions, then what `afterGold` adds after them (e.g. copies of them), the first
 * `corpus` (150) legal-corpus passages and any `extra` passages first (bm25 + qld, built in this process).
 */
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';

export async function buildSmallBarexamIndex(
  out: string,
  o: { items?: number; extra?: readonly Passage[]; corpus?: number; afterGold?: (gold: readonly Passage[]) => Passage[] } = {},
): Promise<void> {
  const gold = new Set((await loadQuestions('barexam', 'val')).slice(0, o.items ?? 1).flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [...(o.extra ?? [])];
  const golds: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) golds.push(p);
  passages.push(...golds, ...(o.afterGold?.(golds) ?? []));
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < (o.corpus ?? 150)) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out, corpusName: 'test', workers: 0 },
  );
}
