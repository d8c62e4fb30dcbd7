/**
 * The offline counter-evidence advocate (`lexcase evidence --offline --against`) ranks passages by
 * contrast = RRF(facts alone) − RRF(facts + hypothesis). Its justifications named the ranks of the
 * facts + hypothesis runs, which usually miss the passage ("contrast from bm25 #-, qld #- for facts
 * + question"), and a question it never searched; the ranks that produced the score are the
 * facts-alone runs'. Now each justification gives both, worded "facts alone vs facts + hypothesis".
 */
import { describe, expect, it } from 'vitest';
import { factsOf } from '../common/question-text.js';
import { printedRun } from '../../retrieval/top-k.js';
import { runOfflineAdvocate } from './advocate-offline.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION } from './test-support/fixtures.js';

describe('offline counter-evidence justifications', () => {
  it('name the facts-alone ranks that produced each contrast score, beside the facts + hypothesis ranks', async () => {
    const retrievers = { bm25: keywordRetriever('bm25'), qld: keywordRetriever('qld') };
    const facts = factsOf(QUESTION);
    const hypothesis = { key: 'C', text: QUESTION.choices[2], letter: 'C' };
    const r = await runOfflineAdvocate({ retrievers, facts, hypothesis, k: 3, stance: 'against', getPassage: getPassageFrom(PASSAGES) });
    expect(r.evidence.length).toBeGreaterThan(0);
    // the ranks as each run is printed (trec_eval's order: equal scores by docid descending), the ranks the advocate fuses
    const rank = async (m: 'bm25' | 'qld', query: string, id: string) => (await printedRun(retrievers[m], query, 100)).find((h) => h.id === id)?.rank ?? '-';
    for (const e of r.evidence) {
      const alone = `bm25 #${await rank('bm25', facts, e.id)}, qld #${await rank('qld', facts, e.id)}`;
      const withHyp = `bm25 #${await rank('bm25', `${facts}\n${hypothesis.text}`, e.id)}, qld #${await rank('qld', `${facts}\n${hypothesis.text}`, e.id)}`;
      expect(e.justification).toBe(`offline heuristic, no LLM: contrast of facts alone (${alone}) vs facts + hypothesis (${withHyp})`);
      expect(alone).not.toContain('#-');
    }
  });
});
