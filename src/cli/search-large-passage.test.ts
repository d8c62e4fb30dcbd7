/**
 * `lexcase search` on an index holding one 60 MB passage (the built CLI as a child process): the
 * snippet comes from the first bytes of the passage only. On the build before the fix the search
 * read and inflated the whole passage and collapsed its whitespace: ~950 MB peak RSS and 17–25 s
 * at load 10 (1.76 GB / 8.6 s in the probe); the test asserts the peak stays under 250 MB.
 * The same for the servers that show hits (`serve`'s /api/search, `serve --api`'s /v1/search): they
 * clip a hit's text and now read only the bytes they can show (peak RSS 148 / 147 MB; 329 / 330 MB
 * when they read the whole passage, load 17).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliChild, startCli, REPO_ROOT } from '../../tests/support/cli-child.js';

const BIG_BYTES = 60e6;
const WORDS = [
  'contract',
  'tort',
  'negligence',
  'damages',
  'statute',
  'court',
  'appeal',
  'plaintiff',
  'defendant',
  'liability',
  'estoppel',
  'consideration',
  'Café',
  '§',
  'naïve',
];
let dir: string;

/** Text of about `bytes` UTF-8 bytes from a seeded word stream (multi-byte characters included). */
function bigText(bytes: number): string {
  const parts: string[] = ['Opening words of the very long passage: adverse possession.'];
  let n = parts[0].length;
  let x = 7;
  while (n < bytes) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const w = WORDS[x % WORDS.length];
    parts.push(w);
    n += Buffer.byteLength(w) + 1;
  }
  return parts.join(x % 3 ? ' ' : '\n');
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-bigpassage-'));
  const w = createWriteStream(join(dir, 'c.jsonl'));
  for (let i = 0; i < 30; i++) w.write(JSON.stringify({ id: `s${i}`, text: `small passage ${i} about contract damages` }) + '\n');
  w.write(JSON.stringify({ id: 'big', text: bigText(BIG_BYTES) }) + '\n');
  await new Promise<void>((r, j) => w.end((e?: Error | null) => (e ? j(e) : r())));
  const b = await cliChild(['index', 'build', join(dir, 'c.jsonl'), '--out', join(dir, 'idx'), '--workers', '0'], { timeoutMs: 240_000 });
  expect(b.stderr).toBe('');
  expect(b.code).toBe(0);
}, 300_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

it('search whose hit is a 60 MB passage reads only its first bytes: snippet right, peak RSS under 250 MB', async () => {
  const rssFile = join(dir, 'rss');
  const preload = pathToFileURL(join(REPO_ROOT, 'tests', 'support', 'max-rss-on-exit.mjs')).href;
  const r = await cliChild(['search', 'adverse possession', '--index', join(dir, 'idx'), '-k', '3', '--json'], {
    env: { LEXCASE_TEST_MAX_RSS_FILE: rssFile, NODE_OPTIONS: `--import ${preload}` },
    timeoutMs: 120_000,
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const out = JSON.parse(r.stdout) as { hits: Array<{ id: string; snippet: string }> };
  expect(out.hits[0].id).toBe('big');
  expect(out.hits[0].snippet.startsWith('Opening words of the very long passage: adverse possession. ')).toBe(true);
  expect(out.hits[0].snippet.endsWith('…')).toBe(true);
  expect([...out.hits[0].snippet].length).toBe(160);
  const maxRssKb = Number(await readFile(rssFile, 'utf8'));
  expect(maxRssKb).toBeGreaterThan(0);
  expect(maxRssKb).toBeLessThan(250 * 1024);
}, 180_000);

async function serverPeakRss(args: string[], ask: (base: string) => Promise<void>): Promise<number> {
  const rssFile = join(dir, `rss-${args.join('-').replace(/\W+/g, '_')}`);
  const preload = pathToFileURL(join(REPO_ROOT, 'tests', 'support', 'max-rss-on-exit.mjs')).href;
  const { child, done } = startCli(['serve', '--index', join(dir, 'idx'), '--port', '0', ...args], {
    env: { LEXCASE_TEST_MAX_RSS_FILE: rssFile, NODE_OPTIONS: `--import ${preload}` },
    timeoutMs: 120_000,
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /(?:explorer|API) at (http:\/\/[^\s/]+(?::\d+)?)/.exec(out);
      if (m) resolve(m[1]);
    });
    void done.then((r) => reject(new Error(`serve exited ${r.code}: ${r.stderr}`)));
  });
  await ask(base);
  child.kill('SIGTERM');
  const end = await done;
  expect(end.code).toBe(0);
  return Number(await readFile(rssFile, 'utf8'));
}

it("the explorer's /api/search and serve --api's /v1/search on the 60 MB passage read only what they show: peak RSS under 250 MB each", async () => {
  const explorer = await serverPeakRss([], async (base) => {
    const res = await fetch(`${base}/api/search?q=adverse%20possession%20contract&method=bm25&k=3`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { hits: Array<{ id: string; truncated: boolean; segments: Array<[string, string | null]> }> };
    expect(body.hits[0].id).toBe('big');
    expect(body.hits[0].truncated).toBe(true);
    expect(body.hits[0].segments.map((x) => x[0]).join('')).toMatch(/^Opening words of the very long passage: adverse possession\./);
    expect(body.hits.find((h) => h.id !== 'big')?.truncated).toBe(false);
  });
  console.log(`peak RSS: explorer ${Math.round(explorer / 1024)} MB`);
  expect(explorer).toBeLessThan(250 * 1024);
  const api = await serverPeakRss(['--api'], async (base) => {
    const res = await fetch(`${base}/v1/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'adverse possession contract', k: 3 }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { hits: Array<{ id: string; truncated: boolean; snippet: string }> };
    expect(body.hits[0]).toMatchObject({ id: 'big', truncated: true });
    expect(body.hits[0].snippet.startsWith('Opening words of the very long passage: adverse possession.')).toBe(true);
    expect(body.hits.find((h) => h.id !== 'big')?.truncated).toBe(false);
  });
  console.log(`peak RSS: serve --api ${Math.round(api / 1024)} MB`);
  expect(api).toBeLessThan(250 * 1024);
}, 240_000);
