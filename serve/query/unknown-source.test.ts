/**
 * A source filter naming a source the index does not hold is refused, naming the index's sources.
 * Before, `{"filters":{"sources":["usconst"]}}` (the source is `us_constitution`) answered an empty
 * 200 — no hits, no word — and list_indexes did not say which source names there are. Now the
 * search is an INVALID_INPUT error (/v1: 400, MCP: a tool error) listing them, and list_indexes
 * gives each index's sources.
 *
 * Data: 120 passages of the bundled legal_corpus (Federal Rules of Evidence, the Constitution, an
 * Arkansas opinion), bm25 + qld, searched in-process through the query service every surface uses.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { openQueryService, type QueryService } from './query-service.js';
import { buildLegal120, LEGAL_120_SOURCES as SOURCES } from './test-support/legal-120.js';

const tmp = tempDir('lexcase-unknown-source-');
const dir = join(tmp.dir, 'legal-120');
let svc: QueryService;

beforeAll(async () => {
  await buildLegal120(dir, ['bm25', 'qld']);
  svc = await openQueryService({ indexes: [{ name: 'legal', dir }] });
}, 60_000);
afterAll(async () => {
  await svc?.close();
  await closeSparseIndexes();
  tmp.cleanup();
});

const QUERY = 'search warrant exception';
const listed = (held: string[]) => `its sources: ${held.join(', ')}`;

describe('search: filters.sources must name sources of the index', () => {
  it('an unknown source name is refused, naming it and the index sources (was: an empty answer)', async () => {
    const held = svc.listIndexes().indexes[0].sources;
    const err = svc.search({ query: QUERY, filters: { sources: ['usconst'] } });
    await expect(err).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'filters.sources' } });
    await expect(err).rejects.toThrow(`invalid filters.sources: "usconst" is not a source of this index; ${listed(held)}`);
  });

  it('one unknown name among known ones is refused too: its passages would be missing without a word', async () => {
    await expect(svc.search({ query: QUERY, method: 'qld', filters: { sources: ['fre', 'us_constitutoin', 'frcp'] } })).rejects.toThrow(
      /"us_constitutoin", "frcp" are not sources of this index; did you mean "us_constitution"\? its sources: /,
    );
  });

  it('a known name answers as before: the top k among its passages', async () => {
    const r = await svc.search({ query: QUERY, k: 3, filters: { sources: ['us_constitution'] } });
    expect(r.hits.length).toBeGreaterThan(0);
    expect(r.hits.every((h) => h.source === 'us_constitution')).toBe(true);
  });
});

describe('list_indexes', () => {
  it("gives each index's source names: what filters.sources takes", () => {
    expect([...svc.listIndexes().indexes[0].sources].sort()).toEqual(SOURCES);
  });
});
