/**
 * An index whose lancedb-fts table was built before lexcase recorded what it indexes (a manifest
 * with the method but no `lancedbFts.textChecksum`), made here from a fresh build of 12 bundled
 * legal_corpus passages (case-law excerpts with their case names as titles) by writing its manifest
 * without that field. Built and inspected with the built CLI (a child process):
 *   - `index info` shows the checksum as it shows the dense vectors' (`embedded`), and says when an
 *     index does not record it;
 *   - `index lancedb-fts DIR` over such an index compares the table's rows with the doc store and,
 *     when they are the same, records the checksum a fresh build records; when the table indexes
 *     other text (here: the texts without their titles) it records nothing and stops naming
 *     --rebuild; with --rebuild it builds the table again and records it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledLines, LEGAL_CORPUS_PASSAGES } from '../tests/support/bundled-data.js';
import { runBuiltCli } from '../tests/support/run-built-cli.js';
import { applyLanceEnv } from './dense/lance-env.js';
import { lanceUri } from './dense/dense-section.js';
import { LANCE_FTS_DIR, LANCE_FTS_TABLE } from './lancedb-fts-build.js';
import { readManifest, writeManifest, type Manifest } from './manifest.js';

const passages = bundledLines(LEGAL_CORPUS_PASSAGES)
  .slice(0, 12)
  .map((l) => JSON.parse(l) as { id: string; title: string; text: string });

let cwd: string;
let idx: string;
/** What a fresh build records. */
let built: Manifest;

const cli = (...args: string[]) => runBuiltCli(args, { cwd });

/** The index as a lexcase from before the checksum left it: the method, no lancedbFts. */
async function older(): Promise<void> {
  const { lancedbFts: _recorded, seal: _seal, ...m } = await readManifest(idx);
  await writeManifest(idx, m);
}

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'lexcase-fts-older-'));
  idx = join(cwd, 'idx');
  await writeFile(join(cwd, 'cases.jsonl'), `${passages.map((p) => JSON.stringify({ id: p.id, title: p.title, text: p.text })).join('\n')}\n`);
  const b = await cli('index', 'build', 'cases.jsonl', '--out', 'idx', '--workers', '0', '--methods', 'bm25,qld,lancedb-fts', '--title-field', 'title');
  expect(b.code, b.stderr).toBe(0);
  built = await readManifest(idx);
  expect(built.lancedbFts?.textChecksum).toMatch(/^[0-9a-f]{64}$/);
}, 180_000);
afterAll(() => rm(cwd, { recursive: true, force: true }));

describe('index info shows what the lancedb-fts table indexes', () => {
  it('its checksum, on a line of its own as the dense vectors have theirs, and in --json', async () => {
    const r = await cli('index', 'info', 'idx');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`\n  full-text lancedb-fts: ids, titles and texts sha256 ${built.lancedbFts!.textChecksum.slice(0, 12)}…\n`);
    const j = await cli('--json', 'index', 'info', 'idx');
    expect(JSON.parse(j.stdout).manifest.lancedbFts).toEqual({ textChecksum: built.lancedbFts!.textChecksum });
  }, 60_000);
});

describe('index lancedb-fts over an index whose table was built before its checksum was recorded', () => {
  it('index info says it is not recorded and how to record it', async () => {
    await older();
    const r = await cli('index', 'info', 'idx');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      '\n  full-text lancedb-fts: ids, titles and texts sha256 not recorded (a table built before it; lexcase index lancedb-fts idx records it)\n',
    );
  }, 60_000);

  it('a table that holds the doc store: kept, and the checksum a fresh build records is recorded and said', async () => {
    await older();
    const r = await cli('index', 'lancedb-fts', 'idx');
    expect(r.code, r.stderr).toBe(0);
    const sum = built.lancedbFts!.textChecksum;
    expect(r.stdout).toContain(
      `lancedb-fts: kept the table idx has (12 passages: its rows are the doc store's) and recorded what it indexes, ids, titles and texts sha256 ${sum.slice(0, 12)}…`,
    );
    expect((await readManifest(idx)).lancedbFts).toEqual({ textChecksum: sum }); // before: none, and it said only "lancedb-fts index in idx"
    const again = await cli('--json', 'index', 'lancedb-fts', 'idx');
    expect(JSON.parse(again.stdout)).toMatchObject({ outcome: 'kept', textChecksum: sum });
  }, 60_000);

  it('a table that indexes other text (the texts without their titles): nothing recorded, the command stops naming --rebuild; --rebuild records it', async () => {
    await older();
    applyLanceEnv();
    const lancedb = await import('@lancedb/lancedb');
    const db = await lancedb.connect(lanceUri(join(idx, LANCE_FTS_DIR)));
    await db.createTable(
      LANCE_FTS_TABLE,
      passages.map((p) => ({ id: p.id, text: p.text })),
      { mode: 'overwrite' },
    );
    const r = await cli('index', 'lancedb-fts', 'idx');
    expect(r.code).toBe(1); // before: 0, the table kept and nothing recorded
    expect(r.stderr).toContain(
      "index at idx: its lancedb-fts table was built before lexcase recorded what the table indexes, and its 12 rows are not the doc store's 12 passages (an id, title or text differs)",
    );
    expect(r.stderr).toContain('hint: rebuild the table from the doc store: lexcase index lancedb-fts idx --rebuild');
    expect((await readManifest(idx)).lancedbFts).toBeUndefined();
    const rebuilt = await cli('--json', 'index', 'lancedb-fts', 'idx', '--rebuild');
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ outcome: 'built', textChecksum: built.lancedbFts!.textChecksum });
    expect((await readManifest(idx)).lancedbFts).toEqual(built.lancedbFts);
  }, 120_000);
});
