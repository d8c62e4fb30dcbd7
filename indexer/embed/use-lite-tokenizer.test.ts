/**
 * The port gives exactly the ids of the tokenizer @energetic-ai/embeddings ships (the tfjs path's):
 * on every Bar Exam QA question (as retrieval sends it) and answer option, on a seeded sample of
 * default-corpus passages (as the index embeds them, and whole), and on edge texts — astral
 * characters (the backtracking steps by UTF-16 length), unknown runs, combining marks, NUL, spaces.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingsModel } from '@energetic-ai/embeddings';
import { createRng } from '../../core/rng.js';
import { retrievalQuery } from '../../corpora/barexam.js';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import { passageEmbedText } from '../dense/add-dense.js';
import { truncateWords } from './batching.js';
import { loadUseLiteDirect } from './use-lite-direct.js';
import { sharedUseLiteTokenizer, USE_LITE_MAX_TOKENS, UseLiteTokenizer } from './use-lite-tokenizer.js';
import { readUseLiteFiles } from './use-lite-weights.js';

describe('use-lite tokenizer port', () => {
  let reference: { encode(text: string): number[] };
  let port: UseLiteTokenizer;
  beforeAll(async () => {
    const { vocabulary } = await readUseLiteFiles();
    reference = new EmbeddingsModel({ vocabulary, model: undefined as never }).tokenizer;
    port = new UseLiteTokenizer(vocabulary);
  });

  const mismatches = (texts: string[]) => texts.filter((t) => port.encode(t).join(',') !== reference.encode(t).join(','));

  it('gives the package tokenizer’s ids for every Bar Exam QA question and option', { timeout: 120_000 }, async () => {
    const texts: string[] = [];
    for (const q of await loadQuestions('barexam', 'all')) texts.push(retrievalQuery(q), ...q.choices);
    expect(texts.length).toBeGreaterThan(5000);
    expect(mismatches(texts)).toEqual([]);
  });

  it('gives the package tokenizer’s ids for default-corpus passages, as embedded (128 words) and whole', { timeout: 120_000 }, async () => {
    const passages: string[] = [];
    for await (const p of loadPassages('default')) passages.push(passageEmbedText(p));
    const sample = createRng(3).sample(passages, 400);
    expect(mismatches(sample.map((t) => truncateWords(t, 128)))).toEqual([]);
    expect(mismatches(sample.slice(0, 40))).toEqual([]);
  });

  it('gives the package tokenizer’s ids on edge texts, unknown characters as one 0 per run', () => {
    const edge = [
      '',
      ' ',
      'a',
      ' leading and trailing ',
      'emoji 😀 in 👩‍⚖️ court 😀😀',
      '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 math',
      'nul \u0000 char',
      'e\u0301 combining',
      'ﬁ ligature ①②',
      '§§ 1983 ¶ — “quoted” …',
      '中文 契約法 договор',
      'tab\tand\nnewline',
      '\u2581 literal separator',
      '😀',
    ];
    expect(mismatches(edge)).toEqual([]);
    expect(port.encode('')).toEqual([]);
    const unknownRun = port.encode('中文');
    expect(unknownRun.filter((id) => id === 0)).toHaveLength(1);
  });

  it("the shared tokenizer is the port on the bundled vocabulary, and USE_LITE_MAX_TOKENS is the graph's length limit", async () => {
    const text = 'The claim rests on §1000(b)(1) concerning adverse possession of land.';
    expect(sharedUseLiteTokenizer().encode(text)).toEqual(port.encode(text));
    expect((await loadUseLiteDirect()).maxTokens).toBe(USE_LITE_MAX_TOKENS);
  });
});
