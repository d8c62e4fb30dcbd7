/**
 * A retrieval eval with no scored question (every question without a gold passage, so none was
 * searched) timed nothing: its latency is null and the table prints "–", not "0.0" ms as if
 * searches had taken no time.
 */
import { describe, expect, it } from 'vitest';
import type { Retriever } from '../retrieval/types.js';
import { evalRetrieval } from './retrieval-eval.js';
import { retrievalTable } from './retrieval-eval-format.js';

const bm25 = { method: 'bm25', search: async () => [{ id: 'hearsay', score: 1.2, rank: 1 }] } as unknown as Retriever;
const question = (id: string) => ({
  id,
  prompt: '',
  question: 'Is the out-of-court statement hearsay?',
  choices: ['yes', 'no'],
  answer: 'A',
  goldPassageIds: [] as string[],
});

describe('retrieval eval latency with no scored question', () => {
  it('is null, and the table says "–" (before: "0.0")', async () => {
    const r = await evalRetrieval({ retriever: bm25, questions: [question('q1'), question('q2')] } as never);
    expect(r).toMatchObject({ n: 0, skipped: 2, latency: { meanMs: null, p50Ms: null, p95Ms: null } });
    const table = retrievalTable({ ks: r.ks, results: [r] } as never);
    expect(table.split('\n').at(-1)).toMatch(/^\| bm25 .*\| +– \|$/);
  });
});
