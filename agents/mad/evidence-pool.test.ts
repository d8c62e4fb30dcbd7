import { describe, expect, it } from 'vitest';
import type { Question } from '../../corpora/types.js';
import type { SystemContext } from '../../eval/types.js';
import { deriveSeed } from '../../core/rng.js';
import { createRetrievalTools } from '../../retrieval/tools/index.js';
import { getPassageFrom, keywordRetriever } from '../case/test-support/fixtures.js';
import { FakeChatModel } from '../../tests/support/fake-chat-model.js';
import { buildEvidencePool, poolTrace } from './evidence-pool.js';
import { poolCuts } from './report-section.js';
import { runMadExperiment } from './experiment.js';

// every option's query ranks the same passage first ("hearsay"), then its own
const CORPUS: Record<string, string> = {
  issue: 'Dana sued Ellis for negligence; which ruling should the judge make?',
  hearsay: 'A hearsay statement is admissible only under an exception to the rule against it.',
  own_a: 'Excited utterance.',
  own_b: 'Sense impression.',
  own_c: 'Party admission.',
  own_d: 'Dying declaration.',
};
const Q: Question = {
  id: 'mbe_pool',
  prompt: 'Dana sued Ellis for negligence.',
  question: 'Which ruling should the judge make?',
  choices: [
    'Admissible hearsay statement: excited utterance',
    'Admissible hearsay statement: present sense impression',
    'Admissible hearsay statement: party admission opposing',
    'Admissible hearsay statement: dying declaration imminent',
  ],
  answer: 'C',
  goldPassageIds: [],
};

function ctx(seed: number): SystemContext {
  const bm25 = keywordRetriever('bm25', CORPUS);
  const getPassage = getPassageFrom(CORPUS);
  return { seed, tools: createRetrievalTools({ retrievers: { bm25 }, docs: { get: getPassage } }), retrievers: { bm25 }, getPassage, options: {} };
}

describe('the shared evidence pool', () => {
  it("interleaves the options' queries in an order seeded per item (recorded), so a passage two options share is not always credited to A", async () => {
    const firsts = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const seed = deriveSeed(13, `mbe_${i}`);
      const { pool, order } = await buildEvidencePool(Q, ctx(seed), 'bm25', 2);
      expect(order).toMatchObject({ kind: 'pool options', seed: deriveSeed(seed, 'pool options:') });
      expect([...order.order].sort()).toEqual(['A', 'B', 'C', 'D']);
      // the shared passage goes to the first option drawn, and each option's own passage follows in the drawn order
      const query = (l: string) => Q.choices['ABCD'.indexOf(l)];
      expect(pool.find((p) => p.id === 'hearsay')!.query).toBe(query(order.order[0]));
      expect(pool.filter((p) => p.id.startsWith('own_')).map((p) => p.id)).toEqual(order.order.map((l) => `own_${l.toLowerCase()}`));
      // the same seed draws the same pool
      expect((await buildEvidencePool(Q, ctx(seed), 'bm25', 2)).pool).toEqual(pool);
      firsts.add(order.order[0]);
    }
    // before: the order was always A, B, C, D — option A's hits got the lower handles on every item
    expect(firsts.size).toBeGreaterThan(1);
  });
});

describe('run mad -k', () => {
  it("a pool passage the doc store has no text for is shown as its search snippet (at most 600 characters), marked fromSnippet and counted as cut in report.md's pool count", async () => {
    // the search index holds the whole text (2,000+ characters); the doc store the prompts read from lost it
    const long = `A hearsay statement is admissible only under an exception. ${'The declarant must be unavailable and the statement against interest. '.repeat(30)}`;
    const corpus = { ...CORPUS, hearsay: long };
    const bm25 = keywordRetriever('bm25', corpus);
    const store = getPassageFrom(corpus);
    const getPassage = async (id: string) => (id === 'hearsay' ? undefined : store(id));
    const c: SystemContext = {
      seed: 7,
      tools: createRetrievalTools({ retrievers: { bm25 }, docs: { get: store } }),
      retrievers: { bm25 },
      getPassage,
      options: {},
    };
    const { pool } = await buildEvidencePool(Q, c, 'bm25', 2);
    const hearsay = pool.find((p) => p.id === 'hearsay')!;
    expect(hearsay.text.length).toBeLessThanOrEqual(600);
    expect(hearsay.text.length).toBeLessThan(long.length);
    expect(hearsay.fromSnippet).toBe(true);
    expect(pool.filter((p) => p.fromSnippet).map((p) => p.id)).toEqual(['hearsay']);
    const trace = { pool: poolTrace(pool, 600), passageChars: 600 };
    expect(trace.pool.find((p) => p.id === 'hearsay')).toEqual({ id: 'hearsay', query: hearsay.query, fromSnippet: true });
    const r = poolCuts([trace], 600)!;
    // before: "All 6 pool passages of 1 item were shown whole (none longer than 600 characters)."
    expect(r.line).toMatch(/^\*\*1 of 6 pool passages\*\* \(in 1 of 1 items\) \*\*were cut to their first 600 characters\*\*/);
    expect(r.line).toContain(
      " 1 of them had no text in the index's doc store: the prompts showed their search snippet (at most 600 characters) instead, counted as cut (`pool[].fromSnippet`).",
    );
    expect(r.json).toMatchObject({ passages: 6, cut: 1, fromSnippet: 1 });
  });

  it('over the retrieval tool\'s 50 passages a search is refused before any item or model call, naming -k and the limit (every item failed with "Received tool input did not match expected schema")', async () => {
    const llm = new FakeChatModel([]);
    await expect(runMadExperiment({ dataset: 'barexam', split: 'val', index: 'not-opened', k: 60, llm, limit: 1 })).rejects.toThrow(
      'invalid -k: 60 passages a search, but the retrieval tools return at most 50 passages a search: give 50 or fewer',
    );
    expect(llm.calls).toHaveLength(0);
  });
});
