/**
 * LanceDB takes a relative path that starts with "db" for a LanceDB Cloud URI: an index dir named
 * `dbx`, given relative (`--index dbx`), answered every dense, hybrid and lancedb-fts search with
 * "An api_key or oauth_config is required when connecting to LanceDb Cloud" (issue 37 item 11).
 * Run as a user runs it: the built CLI, in the folder that holds `dbx`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../tests/support/run-built-cli.js';

const tinyModel = resolve(dirname(fileURLToPath(import.meta.url)), '../tests/fixtures/tiny-embedder/tiny-bert');
const passages = [
  { id: 'p-hearsay', text: 'Hearsay is an out of court statement offered to prove the truth of the matter asserted.' },
  { id: 'p-contract', text: 'A contract needs offer, acceptance and consideration to be enforceable.' },
  { id: 'p-tort', text: 'Negligence requires a duty of care, its breach, causation and damages.' },
];

describe('an index dir whose relative path starts with "db"', () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'lexcase-dbpath-'));
    await writeFile(join(cwd, 'p.jsonl'), passages.map((p) => JSON.stringify(p)).join('\n') + '\n');
    const b = await runBuiltCli(
      [
        'index',
        'build',
        'p.jsonl',
        '--out',
        'dbx',
        '--workers',
        '0',
        '--methods',
        'bm25,qld,dense,lancedb-fts',
        '--embedder',
        'transformers',
        '--model-dir',
        tinyModel,
      ],
      { cwd },
    );
    expect(b.code, b.stderr).toBe(0);
  }, 120_000);
  afterAll(() => rm(cwd, { recursive: true, force: true }));

  it.each(['dense', 'hybrid', 'lancedb-fts'])(
    '%s search of --index dbx answers (no LanceDB Cloud credentials asked for)',
    async (method) => {
      const r = await runBuiltCli(['--json', 'search', 'hearsay statement truth', '--index', 'dbx', '--method', method, '-k', '3'], { cwd });
      expect(r.stderr).not.toMatch(/LanceDb Cloud|api_key/);
      expect(r.code, r.stderr).toBe(0);
      const hits = (JSON.parse(r.stdout) as { hits: Array<{ id: string }> }).hits.map((h) => h.id);
      expect(hits.length).toBeGreaterThan(0);
      for (const id of hits) expect(passages.map((p) => p.id)).toContain(id);
    },
    60_000,
  );
});
