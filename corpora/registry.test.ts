import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../core/version.js';
import { CORPORA, DATA_DIR, datasetChecksum, fileChecksum, loadPassages, loadQuestions } from './registry.js';
import { retrievalQuery } from './barexam.js';
import type { Passage } from './types.js';

/** corpora/data/SHA256SUMS: `<sha256 of the decompressed content>  <bundled file>` per line. */
const recorded = async () =>
  new Map(
    (await readFile(join(DATA_DIR, 'SHA256SUMS'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => /^([0-9a-f]{64}) {2}(\S+)$/.exec(l)!)
      .map((m) => [m[2], m[1]] as const),
  );

async function collect(it: AsyncIterable<Passage>): Promise<Passage[]> {
  const out: Passage[] = [];
  for await (const p of it) out.push(p);
  return out;
}

describe('bundled corpora', () => {
  it('default = barexam gold passages + legal_corpus, with the documented counts and unique ids', async () => {
    const all = await collect(loadPassages('default'));
    expect(all.length).toBe(CORPORA.default.passages);
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
    const bySource = all.reduce<Record<string, number>>((m, p) => ({ ...m, [p.source]: (m[p.source] ?? 0) + 1 }), {});
    expect(bySource).toEqual({ barexam_qa: 1149, cap_arkansas_sample: 2386, ussc_courtlistener: 2008, fre: 115, frcp: 406, us_constitution: 78 });
  });

  it('unknown corpus name lists the bundled names', async () => {
    await expect(collect(loadPassages('no-such-corpus'))).rejects.toMatchObject({
      code: 'CORPUS_NOT_FOUND',
      message: expect.stringContaining('bundled corpora: default, barexam, legal_corpus'),
    });
  });

  it('every bundled data file has the sha256 recorded in corpora/data/SHA256SUMS (the upstream files, after gunzip)', async () => {
    const sums = await recorded();
    expect([...sums.keys()]).toEqual([
      'barexam/qa.jsonl.gz',
      'barexam/passages.jsonl.gz',
      'legal_corpus/passages.jsonl.gz',
      'mmlu_pro_law/law.jsonl.gz',
      'legalbench/hearsay/test.jsonl',
      'legalbench/hearsay/train.jsonl',
      'trade_secret/cases.jsonl',
      'trade_secret/factors.jsonl',
    ]);
    for (const [file, sum] of sums) expect(await fileChecksum(join(DATA_DIR, file)), file).toBe(sum);
    // the registry names read exactly those files
    expect(await datasetChecksum('barexam')).toBe(sums.get('barexam/qa.jsonl.gz'));
    expect(await datasetChecksum('mmlu_pro_law')).toBe(sums.get('mmlu_pro_law/law.jsonl.gz'));
    expect(await datasetChecksum('legal_corpus')).toBe(sums.get('legal_corpus/passages.jsonl.gz'));
    expect(await datasetChecksum(join(PACKAGE_ROOT, 'corpora/data/barexam/passages.jsonl.gz'))).toBe(sums.get('barexam/passages.jsonl.gz'));
  });

  it('the recorded sums are those of the upstream development files (Bar Exam QA, legal_corpus, MMLU-Pro law)', async () => {
    // sha256sum of the upstream plain JSONL files (see corpora/data/README.md), recorded when bundled
    const sums = await recorded();
    expect(sums.get('barexam/qa.jsonl.gz')).toBe('195bf78f11c0d25e85ac0454f17db528766190cd22e4fc5a83ce5cea9dcf68a8');
    expect(sums.get('barexam/passages.jsonl.gz')).toBe('7d33ebb2198b2ea7c780dc8145e78bdc84f061734f71618e69b773856330bf4b');
    // legal_corpus without the site's four role-play rules (9 passages; removed upstream 2026-11-28, legal_corpus/SOURCE.md)
    expect(sums.get('legal_corpus/passages.jsonl.gz')).toBe('6dd6f4be9a9bf7a23101e0572f66cdccf2eed096cfa9f7d5bea710d155f7427f');
    expect(sums.get('mmlu_pro_law/law.jsonl.gz')).toBe('759309d25b1b4ff5704ebccf346e398a30d512166803d3bd53deadf9dd772e68');
  });
});

describe('question datasets', () => {
  it('barexam: 1,195 questions, 4 choices, letter answers, one gold id that exists in the corpus', async () => {
    const qs = await loadQuestions('barexam', 'all');
    expect(qs.length).toBe(1195);
    const ids = new Set((await collect(loadPassages('barexam'))).map((p) => p.id));
    for (const q of qs) {
      expect(q.choices.length).toBe(4);
      expect(['A', 'B', 'C', 'D']).toContain(q.answer);
      expect(q.goldPassageIds.length).toBe(1);
      expect(ids.has(q.goldPassageIds[0])).toBe(true);
    }
    const counts = qs.reduce<Record<string, number>>((m, q) => ({ ...m, [q.answer]: (m[q.answer] ?? 0) + 1 }), {});
    expect(counts).toEqual({ A: 294, B: 295, C: 299, D: 307 });
    expect(qs.filter((q) => q.prompt === '').length).toBe(750);
  });

  it('barexam splits have the original sizes, are disjoint, cover all, and are stable for a seed', async () => {
    const [train, val, test] = await Promise.all((['train', 'val', 'test'] as const).map((s) => loadQuestions('barexam', s)));
    expect([train.length, val.length, test.length]).toEqual([954, 124, 117]);
    const union = new Set([...train, ...val, ...test].map((q) => q.id));
    expect(union.size).toBe(1195);
    const again = await loadQuestions('barexam', 'val', { seed: 13 });
    expect(again.map((q) => q.id)).toEqual(val.map((q) => q.id));
    const other = await loadQuestions('barexam', 'val', { seed: 14 });
    expect(other.map((q) => q.id)).not.toEqual(val.map((q) => q.id));
  });

  it('mmlu_pro_law: 1,101 questions with 3–10 options and a valid letter answer, no gold passages', async () => {
    const qs = await loadQuestions('mmlu_pro_law');
    expect(qs.length).toBe(1101);
    for (const q of qs) {
      expect(q.choices.length).toBeGreaterThanOrEqual(3);
      expect(q.choices.length).toBeLessThanOrEqual(10);
      expect(q.answer.charCodeAt(0) - 65).toBeLessThan(q.choices.length);
      expect(q.goldPassageIds).toEqual([]);
    }
  });

  it('unknown dataset lists the known ones', async () => {
    await expect(loadQuestions('hotpotqa')).rejects.toMatchObject({ code: 'DATASET_UNKNOWN', message: expect.stringContaining('barexam, mmlu_pro_law') });
  });

  it('the retrieval query is prompt + newline + question, or the question alone when the prompt is empty', () => {
    expect(retrievalQuery({ prompt: 'Facts.', question: 'Q?' })).toBe('Facts.\nQ?');
    expect(retrievalQuery({ prompt: '', question: 'Q?' })).toBe('Q?');
  });
});
