/**
 * A source filter costs what it keeps, not the whole ranking (issue 37 item 12). A filter that
 * matched nothing fetched the ranking deeper and deeper (×4 a round, up to every passage) and read
 * every hit's text from the doc store to learn its source: 91–114 s per API call on a 200K index,
 * longer than an MCP client waits. Now the filter is resolved to the passages it keeps first (the
 * doc store's in-memory source column): none kept → no hits, nothing scored or read (a name the
 * index does not hold is now refused, naming its sources, also without reading any); else the
 * ranking is fetched as deep as the filter's share says, hits are kept without reading text, and
 * only the k kept passages are read.
 *
 * Run as users meet it: HTTP requests to `lexcase serve --api` and the MCP SDK client on `lexcase
 * mcp` (the built CLI, children). What a call costs is read from the child's /proc/PID/io (`rchar`:
 * bytes its read() calls returned), a count of work that does not depend on timing or load.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openIndex, type OpenedIndex } from '../../retrieval/open-index.js';
import { runBuiltCli, startServerChild, stdioMcp, type ServerChild, type StdioMcp } from '../../src/mcp/test-support/children.js';

const QUERY = 'hearsay statement offered to prove the truth of the matter asserted';
/** Bytes the process's read() calls have returned so far (Linux), or undefined. */
const rchar = (pid: number | null | undefined): number | undefined => {
  const f = `/proc/${pid}/io`;
  if (!pid || !existsSync(f)) return undefined;
  const m = /^rchar: (\d+)$/m.exec(readFileSync(f, 'utf8'));
  return m ? Number(m[1]) : undefined;
};
const procIo = existsSync('/proc/self/io');

let tmp: string;
let dir: string;
let ix: OpenedIndex;

/** The reference: the unfiltered ranking of every passage, kept by source, first k. */
async function reference(method: string, source: string, k: number): Promise<Array<[string, number]>> {
  const all = await (await ix.retriever(method)).search(QUERY, { k: ix.docs.size });
  const out: Array<[string, number]> = [];
  for (const h of all) if ((await ix.docs.get(h.id))?.source === source && out.length < k) out.push([h.id, h.score]);
  return out;
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-source-filter-'));
  dir = join(tmp, 'legal');
  // the bundled legal_corpus: 5,002 passages; sources cap_arkansas_sample 2,386 … us_constitution 78
  const b = await runBuiltCli(['index', 'build', 'legal_corpus', '--out', dir]);
  expect(b.code, b.stderr).toBe(0);
  ix = await openIndex(dir);
}, 180_000);
afterAll(async () => {
  await ix?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('serve --api: /v1/search with a source filter', () => {
  let srv: ServerChild;
  beforeAll(async () => {
    srv = await startServerChild(['serve', '--api', '--index', dir, '--port', '0']);
  }, 120_000);
  afterAll(async () => {
    await srv?.stop();
  });
  const post = async (body: object, status: number) => {
    const pid = srv.child.pid;
    const before = rchar(pid);
    const res = await fetch(`${srv.info.url}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = (await res.json()) as { hits: Array<{ id: string; score: number; source: string; rank: number }>; error?: { code: string; message: string } };
    expect(res.status, JSON.stringify(json)).toBe(status);
    const after = rchar(pid);
    return { json, read: before === undefined || after === undefined ? undefined : after - before };
  };
  const search = async (body: object) => {
    const { json, read } = await post(body, 200);
    return { hits: json.hits, read };
  };

  it.each(['bm25', 'qld'])('%s: a filter naming no source of the index is refused (400, naming its sources) and reads no passage text', async (method) => {
    const r = await post({ query: QUERY, method, k: 10, filters: { sources: ['no-such-source'] } }, 400);
    expect(r.json.error?.code).toBe('INVALID_INPUT');
    expect(r.json.error?.message).toMatch(/"no-such-source" is not a source of this index; its sources: .*us_constitution/);
    console.log(`serve --api ${method}, filter naming no source: ${r.read} bytes read`);
    // before issue 37 item 12: every passage of the ranking was read, round after round (qld ranks all 5,002: ~MBs)
    if (procIo) expect(r.read).toBeLessThan(64 * 1024);
  });

  it.each(['bm25', 'qld'])(
    '%s: a filter that keeps 78 of 5,002 passages gives the top k of the unfiltered ranking among them, reading only those',
    async (method) => {
      const r = await search({ query: QUERY, method, k: 5, filters: { sources: ['us_constitution'] } });
      const want = await reference(method, 'us_constitution', 5); // bm25 ranks only passages with a query term: 2 here
      expect(want.length).toBeGreaterThan(0);
      expect(r.hits.map((h) => [h.id, h.score])).toEqual(want);
      expect(r.hits.map((h) => h.source)).toEqual(want.map(() => 'us_constitution'));
      expect(r.hits.map((h) => h.rank)).toEqual(want.map((_, i) => i + 1));
      console.log(`serve --api ${method}, filter keeping 78: ${r.read} bytes read`);
      // before: the text of every hit of every round (up to 8,000 reads of 64-passage blocks)
      if (procIo) expect(r.read).toBeLessThan(2 * 1024 * 1024);
    },
  );
});

describe('mcp: the search tool with a source filter', () => {
  let m: StdioMcp;
  beforeAll(async () => {
    m = await stdioMcp(['--index', dir]);
  }, 120_000);
  afterAll(async () => {
    await m?.close();
  });

  it('a filter naming no source of the index is a tool error naming its sources, at once, reading no passage text', async () => {
    const before = rchar(m.pid);
    const r = await m.client.callTool({ name: 'search', arguments: { query: QUERY, method: 'qld', k: 10, filters: { sources: ['no-such-source'] } } });
    const after = rchar(m.pid);
    expect(r.isError).toBe(true);
    expect((r.content as Array<{ text: string }>)[0].text).toMatch(/"no-such-source" is not a source of this index; its sources: .*us_constitution/);
    if (procIo) expect(after! - before!).toBeLessThan(64 * 1024);
  });
});
