/**
 * LexcaseRetriever and fromDocuments refuse a field they do not read, naming it with the field meant
 * (core/did-you-mean.ts): before, { k: 3, filters: { source: 'fre' } } (as /v1 and MCP spell it),
 * searchKwargs, topK and option were taken and dropped — the search ran unfiltered, with the default
 * k or method options, without a word. Data: the bundled legal_corpus (FRE rules beside the other
 * sources), so a dropped source filter shows as passages of other sources.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Document } from '@langchain/core/documents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledLines, LEGAL_CORPUS_PASSAGES } from '../tests/support/bundled-data.js';
import { tempDir } from '../indexer/build-test-helpers.js';
import { LexcaseRetriever } from './langchain-retriever.js';
import { closeSparseIndexes } from './open.js';

interface Row {
  id: string;
  text: string;
  source: string;
}
const all = bundledLines(LEGAL_CORPUS_PASSAGES)
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Row);
/** The Federal Rules of Evidence and as many passages of the other sources (opinions mention hearsay too). */
const fre = all.filter((r) => r.source === 'fre');
const rows = [...fre, ...all.filter((r) => r.source !== 'fre').slice(0, fre.length)];
/** The source a filter keeps: not FRE, which holds the top hits for a hearsay query. */
const OTHER = rows.find((r) => r.source !== 'fre')!.source;
const documents = rows.map((r) => new Document({ id: r.id, pageContent: r.text, metadata: { source: r.source } }));
const tmp = tempDir('lexcase-lc-fields-');
const out = join(tmp.dir, 'idx');
const QUERY = 'hearsay statement offered for the truth';
let retriever: LexcaseRetriever;

beforeAll(async () => {
  retriever = await LexcaseRetriever.fromDocuments(documents, { out, workers: 0, k: 3, filter: { source: OTHER } });
}, 60_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

describe('LexcaseRetriever fields', () => {
  it('filters, searchKwargs, topK and option are refused (INVALID_INPUT) naming the field meant; LangChain fields are taken', async () => {
    // unfiltered, the top 3 are FRE's: a dropped filter would show
    expect((await new LexcaseRetriever({ index: out, k: 3 }).invoke(QUERY)).map((d) => d.metadata.source)).toEqual(['fre', 'fre', 'fre']);
    const refused = (fields: Record<string, unknown>) => {
      try {
        new LexcaseRetriever({ index: out, ...fields } as never);
      } catch (e) {
        return e as Error & { code: string };
      }
      throw new Error(`accepted ${JSON.stringify(fields)}`);
    };
    const filters = refused({ k: 3, filters: { source: 'fre' } });
    expect(filters.code).toBe('INVALID_INPUT');
    expect(filters.message).toMatch(
      /^invalid field "filters": LexcaseRetriever takes no such field: "filters" \(did you mean "filter"\?\); the fields are index, method, k,/,
    );
    expect(refused({ k: 3, searchKwargs: { filter: { source: 'fre' } } }).message).toContain('"searchKwargs" (did you mean "filter"?)');
    expect(refused({ topK: 3 }).message).toContain('"topK" (did you mean "k"?)');
    expect(refused({ k: 3, method: 'qld', option: { mu: 10 } }).message).toContain('"option" (did you mean "options"?)');
    expect(refused({ kk: 3, metdata: {} }).message).toMatch(
      /invalid fields "kk", "metdata": .*"kk" \(did you mean "k"\?\), "metdata" \(did you mean "metadata"\?\)/,
    );
    // BaseRetrieverInput's own fields, and the retriever's, still work
    const docs = await new LexcaseRetriever({
      index: out,
      k: 3,
      filter: { source: OTHER },
      tags: ['t'],
      metadata: { m: 1 },
      verbose: false,
      callbacks: [],
    }).invoke(QUERY);
    expect(docs.map((d) => d.metadata.source)).toEqual([OTHER, OTHER, OTHER]);
    expect((await retriever.invoke(QUERY)).map((d) => d.metadata.source)).toEqual([OTHER, OTHER, OTHER]);
  });

  it('fromDocuments and fromTexts refuse an unknown field before building anything (methds, filters, index)', async () => {
    for (const [field, meant] of [
      ['methds', 'did you mean "methods"?'],
      ['filters', 'did you mean "filter"?'],
      ['index', ''],
    ] as const) {
      const dir = join(tmp.dir, `never-${field}`);
      const e = (await LexcaseRetriever.fromDocuments(documents.slice(0, 5), { out: dir, [field]: ['bm25'] } as never).catch((x: Error) => x)) as Error;
      expect(e).toMatchObject({ code: 'INVALID_INPUT' });
      expect(e.message).toContain(`fromDocuments takes no such field: "${field}"${meant ? ` (${meant})` : ';'}`);
      expect(existsSync(dir)).toBe(false);
    }
    await expect(LexcaseRetriever.fromTexts(['a text'], {}, { out: join(tmp.dir, 'never-texts'), topK: 2 } as never)).rejects.toThrow(
      /"topK" \(did you mean "k"\?\)/,
    );
  });
});
