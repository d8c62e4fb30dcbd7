/**
 * Gold matching is by id, and some gold passage texts exist under a second id in the bundled
 * default corpus (barexam + legal_corpus): a retrieved duplicate under the other id is not counted.
 * docs/case.md states how many: checked here against the bundled data, so the doc cannot drift (it
 * said 10, within Bar Exam QA; the default index has an 11th, mbe_45 = usconst-amend1#p0 of the legal corpus).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from './registry.js';

describe('gold passage texts under a second id (docs/case.md)', () => {
  it('the counts docs/case.md gives are those of the bundled default corpus', async () => {
    const byText = new Map<string, string[]>();
    const textOf = new Map<string, string>();
    for await (const p of loadPassages('default')) {
      textOf.set(p.id, p.text);
      byText.set(p.text, [...(byText.get(p.text) ?? []), p.id]);
    }
    const all = await loadQuestions('barexam', 'all');
    const gold = new Set(all.flatMap((q) => q.goldPassageIds));
    const goldTexts = [...byText.values()].filter((ids) => ids.length > 1 && ids.some((id) => gold.has(id)));
    const withinBarExam = goldTexts.filter((ids) => ids.every((id) => id.startsWith('mbe_')));
    const dupGold = (q: { goldPassageIds: string[] }) => q.goldPassageIds.some((g) => (byText.get(textOf.get(g) ?? '')?.length ?? 0) > 1);
    const bySplit = Object.fromEntries(
      await Promise.all((['train', 'val', 'test'] as const).map(async (s) => [s, (await loadQuestions('barexam', s)).filter(dupGold).map((q) => q.id)])),
    );

    expect(goldTexts).toHaveLength(11);
    expect(withinBarExam).toHaveLength(10);
    expect(goldTexts).toContainEqual(['mbe_45', 'usconst-amend1#p0']);
    expect(all.find((q) => q.id === 'mbe_54')?.goldPassageIds).toEqual(['mbe_45']);
    expect(all.filter(dupGold)).toHaveLength(23);
    expect([bySplit.train.length, bySplit.val, bySplit.test.length]).toEqual([20, ['mbe_1066'], 2]);

    // twins that differ only in punctuation, case or spacing (docs/cli.md, eval retrieval): 7 more questions
    const norm = (t: string) =>
      t
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim();
    const byNorm = new Map<string, number>();
    for (const t of textOf.values()) byNorm.set(norm(t), (byNorm.get(norm(t)) ?? 0) + 1);
    const nearTwin = (q: { goldPassageIds: string[] }) => !dupGold(q) && q.goldPassageIds.some((g) => (byNorm.get(norm(textOf.get(g) ?? '')) ?? 0) > 1);
    const nearBySplit = await Promise.all((['train', 'val', 'test'] as const).map(async (s) => (await loadQuestions('barexam', s)).filter(nearTwin).length));
    expect(nearBySplit).toEqual([6, 0, 1]);
    const cli = readFileSync(join(import.meta.dirname, '../docs/cli.md'), 'utf8').replace(/\s+/g, ' ');
    expect(cli).toContain('23 questions have a byte-identical twin of their gold text (1 val, 2 test) and 7 more a twin that differs only in punctuation');
    expect(cli).toContain('6 train, 1 test');

    const doc = readFileSync(join(import.meta.dirname, '../docs/case.md'), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain('11 gold-passage texts are there under a second id: 10 pairs within Bar Exam QA');
    expect(doc).toContain('`mbe_45` (the gold passage of question `mbe_54`) = `usconst-amend1#p0`');
    expect(doc).toContain(`23 of the ${all.length.toLocaleString('en-US')} questions (20 train, 1 val — \`mbe_1066\` — and 2 test`);
  });
});
