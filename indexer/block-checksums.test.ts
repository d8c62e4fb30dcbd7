/**
 * What a query reads is checked (issue 37 item 10). Without LEXCASE_VERIFY, flipped bytes in
 * ids.bin, postings.bin, title.bin, sources.json, cf.f64 or source.u32 answered wrong with exit 0,
 * and `serve --api` / `mcp` over a damaged index started, listed no methods and answered every
 * search "method bm25 is not in index". Now every data file carries CRC-32s of its 64 KiB blocks
 * (blocks.crc32, itself in the manifest's sha256 checksums); files read whole are checked as an
 * index opens, the rest as reads first touch a block, once per process. A damaged index is one
 * INDEX_CORRUPT error naming the file: `search` exits 1, `serve --api` and `mcp` refuse to start
 * (or, for a block read later, the query that reads it fails with that error).
 *
 * Run as users meet it: the built CLI (search, serve --api over HTTP, mcp with the SDK client).
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LexcaseError } from '../core/errors.js';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';
import { runBuiltCli } from '../tests/support/run-built-cli.js';
import { bundledLines, LEGAL_CORPUS_PASSAGES } from '../tests/support/bundled-data.js';
import { runBuiltCli as runMcpCli, startServerChild, stdioMcp } from '../src/mcp/test-support/children.js';
import { blockCheckStats, forgetCheckedBlocks } from './block-checksums.js';

const QUERY = 'the court held the contract void';
let tmp: string;
let good: string;
let n = 0;

/** A copy of the good index with `damage` applied to one of its files (relative path). */
function damaged(rel: string, damage: (bytes: Buffer) => void): string {
  const dir = join(tmp, `case-${n++}`);
  cpSync(good, dir, { recursive: true });
  const file = join(dir, rel);
  const b = readFileSync(file);
  damage(b);
  writeFileSync(file, b);
  return dir;
}

/**
 * Damage each file the issue names so that the old structural checks pass: every result still
 * parses, the index still opens, only the answers change.
 */
const DAMAGE: Array<[string, (b: Buffer) => void]> = [
  ['docs/ids.bin', (b) => void (b[Math.floor(b.length / 2)] ^= 0x01)], // one id letter → another ASCII letter
  ['sparse/postings.bin', (b) => void (b[Math.floor(b.length / 2)] ^= 0x02)], // a gap or tf
  ['docs/title.bin', (b) => void (b[Math.floor(b.length / 2)] ^= 0x01)],
  ['docs/sources.json', (b) => void (b[b.indexOf('"a"') + 1] ^= 0x01)], // ["a","b"] → ["`","b"]: still JSON
  ['sparse/cf.f64', (b) => void (b[8 * 7] ^= 0x01)], // the lowest mantissa bit of one collection frequency
  ['docs/source.u32', (b) => void (b[0] ^= 0x01)], // passage 0: source "a" (0) → "b" (1), still in range
];

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-block-checks-'));
  // 200 real passages (with titles), in two sources so a changed source index stays in range
  const lines = bundledLines(LEGAL_CORPUS_PASSAGES).filter(Boolean).slice(0, 200);
  const rows = lines.map((l, i) => ({ ...(JSON.parse(l) as object), source: i % 2 ? 'b' : 'a' }));
  writeFileSync(join(tmp, 'p.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  good = join(tmp, 'good');
  const b = await runBuiltCli(['index', 'build', join(tmp, 'p.jsonl'), '--out', good, '--workers', '0']);
  expect(b.code, b.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  await rm(tmp, { recursive: true, force: true });
});

describe('search over a damaged index', () => {
  it('the intact index answers (exit 0)', async () => {
    const r = await runBuiltCli(['--json', 'search', QUERY, '--index', good, '--method', 'qld', '-k', '5']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { hits: unknown[] }).hits).toHaveLength(5);
  });

  it.each(DAMAGE)(
    '%s: exit 1, one INDEX_CORRUPT line naming the file and the block, no hits',
    async (rel, damage) => {
      const dir = damaged(rel, damage);
      const r = await runBuiltCli(['search', QUERY, '--index', dir, '--method', 'qld', '-k', '5']);
      expect(r.code, `${rel}: ${r.stdout}`).toBe(1);
      expect(r.stderr).toContain(`${join(dir, rel)}: index file is corrupt: block 0 (bytes 0–`);
      expect(r.stderr).toMatch(/does not match its checksum \(crc32 [0-9a-f]{8}, recorded [0-9a-f]{8}\)/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(r.stdout).toBe('');
    },
    60_000,
  );

  it('an index built before block checksums (no blocks section) is still read, with the structural checks', async () => {
    const dir = damaged('manifest.json', () => undefined);
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    const file = m.blocks.file as string;
    delete m.blocks;
    delete m.seal;
    delete m.checksums[file];
    delete m.sizes[file];
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m, null, 2));
    rmSync(join(dir, file));
    const r = await runBuiltCli(['--json', 'search', QUERY, '--index', dir, '--method', 'qld', '-k', '5']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { hits: unknown[] }).hits).toHaveLength(5);
  });
});

describe('serve --api over a damaged index', () => {
  it('a file read when the index opens (cf.f64): the server refuses to start, naming the file', async () => {
    const dir = damaged('sparse/cf.f64', DAMAGE[4][1]);
    const outcome = await startServerChild(['serve', '--api', '--index', dir, '--port', '0']).then(
      async (s) => {
        const methods = await (await fetch(`${s.info.url}/indexes`)).text();
        await s.stop();
        return `started; /v1/indexes: ${methods}`;
      },
      (e: Error) => e.message,
    );
    expect(outcome).toMatch(/exited with 1 before its start line/);
    expect(outcome).toContain('sparse/cf.f64: index file is corrupt: block 0');
  }, 120_000);

  it('a block read by the first query (postings.bin): the search is a 500 INDEX_CORRUPT naming the file; nothing is answered wrong', async () => {
    const dir = damaged('sparse/postings.bin', DAMAGE[1][1]);
    const s = await startServerChild(['serve', '--api', '--index', `cases=${dir}`, '--port', '0']);
    try {
      const indexes = (await (await fetch(`${s.info.url}/indexes`)).json()) as { indexes: Array<{ methods: string[] }> };
      expect(indexes.indexes[0].methods).toEqual(['bm25', 'qld']);
      for (const method of ['bm25', 'qld']) {
        const res = await fetch(`${s.info.url}/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: QUERY, method, k: 5 }),
        });
        const body = (await res.json()) as { error?: { code: string; message: string } };
        expect(res.status, JSON.stringify(body)).toBe(500);
        expect(body.error?.code).toBe('INDEX_CORRUPT');
        expect(body.error?.message).toMatch(/sparse\/postings\.bin: index file is corrupt: block 0 \(bytes 0–\d+\) does not match its checksum/);
      }
    } finally {
      await s.stop();
    }
  }, 120_000);
});

describe('mcp over a damaged index', () => {
  it('a file read when the index opens (ids.bin): `lexcase mcp` exits 1 naming the file', async () => {
    const dir = damaged('docs/ids.bin', DAMAGE[0][1]);
    const r = await runMcpCli(['mcp', '--index', dir]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'docs/ids.bin')}: index file is corrupt: block 0`);
  }, 120_000);

  it('a block read by the first query (title.bin): the search tool is an error naming the file', async () => {
    const dir = damaged('docs/title.bin', DAMAGE[2][1]);
    const m = await stdioMcp(['--index', dir]);
    try {
      const r = await m.client.callTool({ name: 'search', arguments: { query: QUERY, method: 'bm25', k: 5 } });
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r.content)).toMatch(/docs\/title\.bin: index file is corrupt: block 0/);
    } finally {
      await m.close();
    }
  }, 120_000);
});

describe('in a process', () => {
  it('query workers report a damaged posting block as INDEX_CORRUPT (not "query worker failed")', async () => {
    const dir = damaged('sparse/postings.bin', DAMAGE[1][1]);
    const r = await openRetriever(dir, 'bm25', { threads: 2 });
    const e = await r.search(QUERY, { k: 5 }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(LexcaseError);
    expect((e as LexcaseError).code).toBe('INDEX_CORRUPT');
    expect((e as LexcaseError).message).toContain(`${join(dir, 'sparse/postings.bin')}: index file is corrupt: block 0`);
    await closeSparseIndexes(dir);
  });

  it('each block is checked once per process: a second search of the same index checks nothing more', async () => {
    const dir = damaged('manifest.json', () => undefined);
    forgetCheckedBlocks();
    const s0 = blockCheckStats();
    const r = await openRetriever(dir, 'qld');
    await r.search(QUERY, { k: 5, withText: true });
    const s1 = blockCheckStats();
    expect(s1.blocks).toBeGreaterThan(s0.blocks);
    await r.search(QUERY, { k: 5, withText: true });
    await r.search(QUERY, { k: 5, withText: true });
    expect(blockCheckStats().blocks).toBe(s1.blocks);
    await closeSparseIndexes(dir);
  });
});
