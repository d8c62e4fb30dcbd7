/**
 * The lexical support check on real data (bundled Bar Exam QA, val split): an option's legal reason
 * checked against the question's gold passage vs against another question's gold passage. The check
 * is a relatedness proxy: it must accept the on-point passage far more often than an unrelated one.
 */
import { describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import { LETTERS } from '../../corpora/types.js';
import { lexicallySupports } from './citation-check.js';

describe('lexical support check on Bar Exam QA', () => {
  it('accepts the gold passage for the correct option ≥ 5× as often as an unrelated gold passage, and rarely accepts unrelated ones', async () => {
    const qs = await loadQuestions('barexam', 'val');
    const ids = new Set(qs.flatMap((q) => q.goldPassageIds));
    const text = new Map<string, string>();
    for await (const p of loadPassages('barexam')) if (ids.has(p.id)) text.set(p.id, p.text);
    const list = qs.filter((q) => q.goldPassageIds.length && text.has(q.goldPassageIds[0]));
    expect(list.length).toBeGreaterThan(50);
    let onPoint = 0;
    let unrelated = 0;
    list.forEach((q, i) => {
      const claim = q.choices[LETTERS.indexOf(q.answer as (typeof LETTERS)[number])];
      if (lexicallySupports(claim, text.get(q.goldPassageIds[0])!).supportive) onPoint++;
      const other = list[(i + 7) % list.length];
      if (lexicallySupports(claim, text.get(other.goldPassageIds[0])!).supportive) unrelated++;
    });
    const rOn = onPoint / list.length;
    const rUn = unrelated / list.length;
    expect(rOn).toBeGreaterThan(0.25);
    expect(rUn).toBeLessThan(0.06);
    expect(rOn).toBeGreaterThanOrEqual(5 * Math.max(rUn, 0.01));
  }, 30_000);
});
