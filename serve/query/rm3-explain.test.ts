/**
 * explain takes search's `rm3` and explains an RM3 hit as `lexcase search --explain --rm3 --json`
 * does. It refused the field ("explain: unknown field "rm3"; explain takes {index, query, method,
 * id}") on /v1/explain, MCP and the library, so an RM3 hit's score could be explained only by the
 * CLI. Now each surface gives the same score, the expanded query (terms and weights) and per expanded
 * term the part of the score (qtf: its weight), the parts summing to the hit's RM3 score — the very
 * numbers of the built CLI run as a child process on the same index, query and passage.
 *
 * Data: 120 passages of the bundled legal_corpus (Federal Rules of Evidence, the Constitution, an
 * Arkansas opinion), bm25 and qld; the service, the /v1 server and the MCP server run in-process.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../indexer/build-test-helpers.js';
import type { ApiServer } from '../../src/api/server.js';
import { type Legal120Surfaces, startLegal120Surfaces } from '../../src/mcp/test-support/legal-120-surfaces.js';
import { runBuiltCli } from '../../src/mcp/test-support/children.js';
import type { QueryService } from './query-service.js';

const tmp = tempDir('lexcase-rm3-explain-');
const dir = join(tmp.dir, 'legal-120');
let svc: QueryService;
let api: ApiServer;
let mcp: Client;
let surfaces: Legal120Surfaces | undefined;

beforeAll(async () => {
  surfaces = await startLegal120Surfaces(dir, ['bm25', 'qld'], 'rm3-explain-test');
  ({ svc, api, mcp } = surfaces);
}, 60_000);
afterAll(async () => {
  await surfaces?.close();
  tmp.cleanup();
});

const QUERY = 'hearsay statement against interest';

interface CliHit {
  id: string;
  score: number;
  explanation: { score: number; base?: number; terms: Array<{ term: string; qtf: number; tf: number; df: number; score: number }> };
}
/** `lexcase search QUERY --index DIR --method M --rm3 [flags] --explain --json -k 3`, parsed. */
async function cliSearch(method: string, rm3Flags: string[]): Promise<{ method: string; expansion: Array<{ term: string; weight: number }>; hits: CliHit[] }> {
  const r = await runBuiltCli(['search', QUERY, '--index', dir, '--method', method, '--rm3', ...rm3Flags, '--explain', '--json', '-k', '3']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

const postExplain = async (body: unknown) => {
  const res = await fetch(`${api.url}/v1/explain`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

describe("explain with rm3 gives the CLI's `search --explain --rm3` numbers on every surface", () => {
  for (const [method, rm3, flags] of [
    ['bm25', true, []],
    ['qld', { fbDocs: 3, fbTerms: 5, originalQueryWeight: 0.7 }, ['--fb-docs', '3', '--fb-terms', '5', '--original-query-weight', '0.7']],
  ] as const) {
    it(`${method}+rm3 (rm3 ${JSON.stringify(rm3)}): /v1/explain, MCP explain and the library equal the CLI's explanation of its top hits`, async () => {
      const cli = await cliSearch(method, [...flags]);
      expect(cli.method).toBe(`${method}+rm3`);
      expect(cli.hits.length).toBeGreaterThan(1);
      // the expansion adds feedback terms to the query's own four
      expect(cli.expansion.length).toBeGreaterThan(4);
      for (const hit of cli.hits) {
        const input = { query: QUERY, method, id: hit.id, rm3 };
        const lib = await svc.explain(input);
        const http = await postExplain(input);
        expect(http.status).toBe(200);
        const tool = (await mcp.callTool({ name: 'explain', arguments: input })) as { isError?: boolean; structuredContent?: unknown };
        expect(tool.isError).toBeFalsy();
        for (const got of [lib, http.json, tool.structuredContent] as Array<Record<string, any>>) {
          expect(got.method).toBe(`${method}+rm3`);
          expect(got.expansion).toEqual(cli.expansion);
          // the CLI's explanation exactly; its ranked score to the last bits (search sums the terms in another order)
          expect(got.score).toBe(hit.explanation.score);
          expect(got.score).toBeCloseTo(hit.score, 12);
          expect(got.terms).toEqual(hit.explanation.terms);
          expect(got.base).toBe(hit.explanation.base);
          // the parts sum to the hit's RM3 score, each term weighted by its expansion weight
          const parts = got.terms.reduce((s: number, t: { score: number }) => s + t.score, got.base ?? 0);
          expect(parts).toBeCloseTo(hit.score, 12);
          const weight = new Map(cli.expansion.map((t) => [t.term, t.weight]));
          for (const t of got.terms) expect(t.qtf).toBe(weight.get(t.term));
        }
      }
    }, 120_000);
  }

  it('explain without rm3 is unchanged (qtf the integer count, no expansion); bad rm3 parameters are a 400 naming them', async () => {
    const id = (await svc.search({ query: QUERY, k: 1 })).hits[0].id;
    const plain = await postExplain({ query: QUERY, id });
    expect(plain.status).toBe(200);
    expect(plain.json.method).toBe('bm25');
    expect(plain.json.expansion).toBeUndefined();
    expect(plain.json.terms.map((t: { qtf: number }) => t.qtf)).toEqual([1, 1, 1, 1]);
    const bad = await postExplain({ query: QUERY, id, rm3: { fbDoc: 3 } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('explain: unknown field "rm3.fbDoc"; did you mean "fbDocs"?');
  });
});
