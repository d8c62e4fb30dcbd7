/**
 * A transformers model reads at most its tokenizer's model_max_length tokens of a query (512 for the
 * tiny BERT fixture, as for BGE) and the pipeline cut a longer query there without a word: dense and
 * hybrid searches now warn once naming the query, and `eval retrieval` (its printed report) and a
 * `--topics` batch say how many queries were cut. The hits are the same as before.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import type { Question } from '../corpora/types.js';
import { formatRetrievalReport } from '../eval/retrieval-eval-format.js';
import { evalRetrieval } from '../eval/retrieval-eval.js';
import { batchSearch } from '../eval/trec/batch-search.js';
import { createEmbedder } from '../indexer/embed/create-embedder.js';
import { WHOLE_QUERY } from './dense-query.js';
import { createQueryCutCounter, QUERY_CUT_MEMORY } from './dense-query-cut.js';
import { openRetriever } from './open.js';
import { runCli } from '../tests/support/run-cli.js';
import { buildTinyBertIndex, TINY_BERT_DIR, tinyBertPassages } from '../tests/support/tiny-bert-index.js';

const modelDir = TINY_BERT_DIR;
const passages = tinyBertPassages();
// a fact pattern of ten passages' legal English (past 512 tokens), and a short question
const longQuery = passages
  .slice(20, 30)
  .map((p) => p.text)
  .join(' ');
const shortQuery = 'Is a statement offered for the truth of the matter asserted hearsay?';

let tmp: string;
let dir: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-query-cut-'));
  dir = join(tmp, 'ix');
  await buildTinyBertIndex(dir, passages.slice(0, 20));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('dense queries longer than the model reads', () => {
  it('the query really is past the fixture tokenizer’s 512 tokens, the short one is not', async () => {
    const { AutoTokenizer, env } = await import('@xenova/transformers');
    env.localModelPath = dirname(modelDir);
    env.allowRemoteModels = false;
    const tokenizer = await AutoTokenizer.from_pretrained('tiny-bert');
    expect(tokenizer.encode(longQuery).length).toBeGreaterThan(512);
    expect(tokenizer.encode(shortQuery).length).toBeLessThan(512);
  });

  it('dense search warns once, naming the first cut query; the hits are those of the query with more words after it', async () => {
    const dense = await openRetriever(dir, 'dense');
    const warn = vi.spyOn(log, 'warn');
    try {
      const hits = await dense.search(longQuery, { k: 5 });
      await dense.search(shortQuery, { k: 5 });
      await dense.search(longQuery, { k: 5 });
      const longer = await dense.search(`${longQuery} ${passages[35].text}`, { k: 5 });
      const said = warn.mock.calls.flat().filter((m) => String(m).includes('tokens'));
      expect(said).toEqual([
        `dense: the query "${longQuery.slice(0, 40)}…" is longer than the transformers model's 512 tokens: embedded from its first 512 (the rest is not read; said once, a --topics run or eval retrieval counts them)`,
      ]);
      // what the warning says is so: words past the 512th token change nothing
      expect(longer).toEqual(hits);
      expect(dense.queriesReadInPart?.()).toEqual({ provider: 'transformers', maxTokens: 512, of: 3, cut: 2 });
    } finally {
      warn.mockRestore();
    }
  });

  it("eval retrieval's printed report and a --topics batch say how many queries were cut (hybrid: of its dense component)", async () => {
    const question = (id: string, prompt: string, gold: string): Question =>
      ({ id, prompt, question: '', choices: [], answer: '', goldPassageIds: [gold] }) as unknown as Question;
    const hybrid = await openRetriever(dir, 'hybrid');
    const result = await evalRetrieval({
      retriever: hybrid,
      questions: [question('q1', longQuery, passages[0].id), question('q2', shortQuery, passages[1].id)],
      queryOf: (q) => q.prompt,
      iterations: 50,
    });
    const note = "1 of 2 queries were longer than the transformers model's 512 tokens: embedded from their first 512";
    expect(result.warnings).toEqual([note]);
    const printed = formatRetrievalReport({
      corpus: { name: 'barexam-sample', passages: 20 },
      dataset: { name: 'sample', split: 'val', splitSeed: 1, n: 2 },
      query: 'the prompt',
      ks: result.ks,
      results: [result],
    } as unknown as Parameters<typeof formatRetrievalReport>[0]);
    expect(printed).toContain(`**Warning:** hybrid: ${note}.`);

    const dense = await openRetriever(dir, 'dense');
    const batch = await batchSearch(
      dense,
      [
        { id: 't1', text: shortQuery },
        { id: 't2', text: longQuery },
        { id: 't3', text: `${longQuery} again` },
      ],
      { k: 10 },
    );
    expect(batch.queriesCut).toBe("2 of 3 queries were longer than the transformers model's 512 tokens: embedded from their first 512");
  });

  it('a long-lived retriever (serve, MCP) remembers at most QUERY_CUT_MEMORY queries, and still counts each distinct query once while it is remembered', async () => {
    // what `lexcase serve` asks over days: distinct questions, the long fact pattern among them
    const embedder = await createEmbedder({ provider: 'transformers', modelDir });
    const counter = createQueryCutCounter(embedder);
    const asked = QUERY_CUT_MEMORY + 2_000;
    const warn = vi.spyOn(log, 'warn');
    try {
      counter.see(longQuery, WHOLE_QUERY);
      for (let i = 1; i < asked; i++) {
        counter.see(`${shortQuery} (question ${i})`, WHOLE_QUERY);
        // a search past a tie asks its query again at once: not counted again
        if (i % 1_000 === 0) counter.see(`${shortQuery} (question ${i})`, WHOLE_QUERY);
      }
      expect(warn.mock.calls.flat().filter((m) => String(m).includes('tokens'))).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
    // before, every query's text was kept: 12,000 of them
    expect(counter.remembered()).toBe(QUERY_CUT_MEMORY);
    expect(counter.counts()).toEqual({ provider: 'transformers', maxTokens: 512, of: asked, cut: 1 });
    // the most recent are remembered; the long query, asked first, was forgotten and counts again
    counter.see(`${shortQuery} (question ${asked - 1})`, WHOLE_QUERY);
    counter.see(longQuery, WHOLE_QUERY);
    expect(counter.counts()).toEqual({ provider: 'transformers', maxTokens: 512, of: asked + 1, cut: 2 });
    expect(counter.remembered()).toBe(QUERY_CUT_MEMORY);
  });
  it('search --json says its query was cut (queryCut; hybrid: of its dense component), and not of a short query searched after a cut one', async () => {
    // before: only the stderr warning said it; the --json a script reads had no trace of it
    const search = async (q: string, method: string) =>
      JSON.parse((await runCli(['--json', 'search', q, '--index', dir, '--method', method, '-k', '3'])).stdout);
    expect((await search(longQuery, 'dense')).queryCut).toBe(
      "the query is longer than the transformers model's 512 tokens: embedded from its first 512 (the rest is not read)",
    );
    expect((await search(longQuery, 'hybrid')).queryCut).toBe(
      "the query is longer than the transformers model's 512 tokens: the hybrid ranking's dense component embedded it from its first 512 (the rest is not read there; its other components read it whole)",
    );
    const short = await search(shortQuery, 'dense');
    expect(short.hits).toHaveLength(3);
    expect(short).not.toHaveProperty('queryCut');
    expect(await search(longQuery, 'bm25')).not.toHaveProperty('queryCut');
  });
});
