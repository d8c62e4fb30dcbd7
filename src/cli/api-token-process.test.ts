/**
 * The bearer token of `lexcase serve --api` as a user gives it (issue 37 item 16): the built CLI
 * in a child process. `--token-file FILE` (or LEXCASE_API_TOKEN) keeps the token out of the
 * process's command line, which every user of the machine reads in `ps` (/proc/PID/cmdline);
 * `--token SECRET` still works but says so, and --help no longer shows it.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { runBuiltCli, startServerChild } from '../mcp/test-support/children.js';

let dir: string;
let index: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-api-token-'));
  index = join(dir, 'tiny');
  const passages: Passage[] = [];
  for await (const p of loadPassages('legal_corpus')) if (passages.push(p) >= 200) break;
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'tiny', workers: 0 },
  );
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serve --api takes its token from a file or the environment, not the command line', () => {
  it('--token-file FILE: the token is in no argument of the process, and requests need it', async () => {
    const token = 'file-token-5d1c0e9a7b3f4e2d8c6a';
    const file = join(dir, 'api-token');
    writeFileSync(file, `${token}\n`);
    chmodSync(file, 0o600);
    const s = await startServerChild(['serve', '--api', '--port', '0', '--index', index, '--token-file', file]);
    try {
      expect(s.info.token).toBe(true);
      expect(readFileSync(`/proc/${s.child.pid}/cmdline`, 'utf8')).not.toContain(token); // what ps shows
      const base = s.info.url;
      expect((await fetch(`${base}/indexes`)).status).toBe(401);
      expect((await fetch(`${base}/indexes`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      expect(s.stderr()).not.toContain(token);
    } finally {
      await s.stop();
    }
  }, 180_000);

  it('--token SECRET warns that ps shows it; --help shows --token-file and LEXCASE_API_TOKEN, not --token', async () => {
    const r = await runBuiltCli(['serve', '--api', '--port', '0', '--index', index, '--token', 'short']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /\[warn\] --token puts the token on the command line, where every user of this machine can read it \(ps, \/proc\); set LEXCASE_API_TOKEN, or .*--token-file FILE/,
    );
    expect(r.stderr).toMatch(/invalid --token: the token needs at least 16 characters/);
    const help = await runBuiltCli(['serve', '--help']);
    expect(help.stdout).toMatch(/--token-file <file>.*\$LEXCASE_API_TOKEN/s);
    expect(help.stdout).not.toMatch(/--token <secret>/);
    const refused = await runBuiltCli(['serve', '--api', '--host', '0.0.0.0', '--port', '0', '--index', index]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /binding 0\.0\.0\.0 \(not a loopback address\) needs an API token\n {2}hint: set LEXCASE_API_TOKEN=SECRET or give --token-file FILE/,
    );
  }, 120_000);
});
