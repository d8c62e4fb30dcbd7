/**
 * `lexcase serve` as a user starts and stops it: the built binary in a child process on a free port
 * (--port 0), its printed URL answering the page and the search API over a real index and run dir,
 * a refused foreign Host, and a clean exit (0) on SIGTERM and on SIGINT (Ctrl-C).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, lexcase, startLexcase, STACK_TRACE } from '../support/spawn-cli.js';

let dir: string;
let idx: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-serve-'));
  const passages = join(dir, 'p.jsonl');
  writeFileSync(
    passages,
    [
      { id: 'ap-1', text: 'Title by adverse possession requires possession that is actual, open and notorious, exclusive, hostile and continuous.' },
      { id: 'hs-1', text: 'Hearsay is an out-of-court statement offered to prove the truth of the matter asserted.' },
    ]
      .map((p) => JSON.stringify(p))
      .join('\n') + '\n',
  );
  idx = join(dir, 'idx');
  const b = await lexcase(['-q', 'index', 'build', passages, '--out', idx]);
  if (b.code !== 0) throw new Error(b.stderr);
  mkdirSync(join(dir, 'runs'));
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lexcase serve', () => {
  it('prints its URL, serves the app and the search API, and exits 0 on SIGTERM', async () => {
    const s = startLexcase(['serve', '--index', idx, '--runs', join(dir, 'runs'), '--port', '0'], { cwd: dir });
    try {
      const [url] = await s.waitFor(/http:\/\/127\.0\.0\.1:\d+/);
      expect(url).not.toMatch(/:0$/);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<html/i);
      const hits = await (await fetch(`${url}/api/search?q=${encodeURIComponent('adverse possession')}&k=1`)).json();
      expect(JSON.stringify(hits)).toContain('ap-1');
      const runs = await (await fetch(`${url}/api/runs`)).json();
      expect(runs).toEqual({ runs: [] });
      // a request naming another host is refused (DNS-rebinding guard)
      const port = new URL(url).port;
      const foreign = await new Promise<number>((res, rej) => {
        import('node:http').then(({ request }) => {
          const req = request({ host: '127.0.0.1', port, path: '/api/info', headers: { host: 'evil.example' } }, (r) => {
            r.resume();
            res(r.statusCode ?? 0);
          });
          req.on('error', rej);
          req.end();
        }, rej);
      });
      expect(foreign).toBeGreaterThanOrEqual(400);
    } finally {
      const r = await s.stop('SIGTERM');
      expect(r.code, r.stderr).toBe(0);
      expect(STACK_TRACE.test(r.stderr)).toBe(false);
    }
  });

  it('stops on Ctrl-C (SIGINT) with exit 0; --json prints the URL as JSON', async () => {
    const s = startLexcase(['--json', 'serve', '--index', idx, '--port', '0'], { cwd: dir });
    const [, url] = await s.waitFor(/"url":\s*"(http:\/\/127\.0\.0\.1:\d+)"/);
    expect((await fetch(url)).status).toBe(200);
    const r = await s.stop('SIGINT');
    expect(r.code, r.stderr).toBe(0);
  });

  it('with neither --index nor --runs: one usage error, exit 1', async () => {
    const r = await lexcase(['serve', '--port', '0'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--index/);
  });
});
