/**
 * `lexcase index verify` covers an index's lancedb-fts table (indexer/verify-lancedb-fts.ts), whose
 * files LanceDB owns and the manifest has no sha256 for. An index of 12 bundled legal_corpus
 * passages (case-law excerpts, case names as titles) with the table is built with the built CLI;
 * each case alters a copy of it the way a user's table can be (a row deleted, a row's text changed,
 * a data file cut short) and runs `index verify` and `index info` as a child process; and
 * `index lancedb-fts` does not keep a table that lost rows as if it were whole.
 */
import { cp, mkdtemp, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledLines, LEGAL_CORPUS_PASSAGES } from '../tests/support/bundled-data.js';
import { runBuiltCli } from '../tests/support/run-built-cli.js';
import { applyLanceEnv } from './dense/lance-env.js';
import { lanceUri } from './dense/dense-section.js';
import { LANCE_FTS_DIR, LANCE_FTS_TABLE } from './lancedb-fts-build.js';
import { readManifest } from './manifest.js';

const passages = bundledLines(LEGAL_CORPUS_PASSAGES)
  .slice(0, 12)
  .map((l) => JSON.parse(l) as { id: string; title: string; text: string });

let cwd: string;
let sum: string;
let copies = 0;

const cli = (...args: string[]) => runBuiltCli(args, { cwd });

/** A fresh copy of the built index (relative to cwd), its table opened for altering. */
async function copy(): Promise<{ rel: string; table: import('@lancedb/lancedb').Table }> {
  const rel = `copy-${++copies}`;
  await cp(join(cwd, 'idx'), join(cwd, rel), { recursive: true });
  applyLanceEnv();
  const lancedb = await import('@lancedb/lancedb');
  const db = await lancedb.connect(lanceUri(join(cwd, rel, LANCE_FTS_DIR)));
  return { rel, table: await db.openTable(LANCE_FTS_TABLE) };
}

const part = (rel: string) => `${rel}/lancedb-fts (lancedb-fts table "passages")`;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'lexcase-verify-fts-'));
  await writeFile(join(cwd, 'cases.jsonl'), `${passages.map((p) => JSON.stringify(p)).join('\n')}\n`);
  const b = await cli('index', 'build', 'cases.jsonl', '--out', 'idx', '--workers', '0', '--methods', 'bm25,qld,lancedb-fts', '--title-field', 'title');
  expect(b.code, b.stderr).toBe(0);
  sum = (await readManifest(join(cwd, 'idx'))).lancedbFts!.textChecksum;
}, 180_000);
afterAll(() => rm(cwd, { recursive: true, force: true }));

describe('index verify checks the lancedb-fts table', () => {
  it('an intact table: exit 0, and the line and --json say what was checked', async () => {
    const r = await cli('index', 'verify', 'idx');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `; lancedb-fts table: its 12 rows are the doc store's ids, titles and texts (sha256 ${sum.slice(0, 12)}…, as the manifest records), all in its full-text index`,
    );
    const j = await cli('--json', 'index', 'verify', 'idx');
    expect(JSON.parse(j.stdout).lancedbFts).toEqual({ rows: 12, textChecksum: sum, recorded: true });
    const info = await cli('--json', 'index', 'info', 'idx');
    expect(JSON.parse(info.stdout).integrity.lancedbFts).toEqual({ rows: 12, textChecksum: sum, recorded: true });
  }, 60_000);

  it('a row deleted: exit 1 naming the table and the counts (before: "integrity ok", exit 0)', async () => {
    const { rel, table } = await copy();
    await table.delete(`id = '${passages[3].id}'`);
    for (const cmd of ['verify', 'info']) {
      const r = await cli('index', cmd, rel);
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).not.toContain('integrity ok');
      expect(r.stderr).toContain(
        `${part(rel)}: index file is corrupt: the table does not hold the doc store's passages: it holds 11 rows where the doc store holds 12 passages`,
      );
      expect(r.stderr).toContain(`hint: rebuild the table from the doc store: lexcase index lancedb-fts ${rel} --rebuild`);
    }
  }, 60_000);

  it("a row's text replaced by another passage's (same row count): exit 1", async () => {
    const { rel, table } = await copy();
    await table.update({ where: `id = '${passages[0].id}'`, values: { text: `${passages[1].title}\n\n${passages[1].text}` } });
    const r = await cli('index', 'verify', rel);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toContain(
      `${part(rel)}: index file is corrupt: the table does not hold the doc store's passages: its 12 rows are not the doc store's 12 passages`,
    );
  }, 60_000);

  it('a data file cut short: exit 1 naming the table as unreadable', async () => {
    const { rel } = await copy();
    const data = join(cwd, rel, LANCE_FTS_DIR, `${LANCE_FTS_TABLE}.lance`, 'data');
    const [first] = await readdir(data);
    await truncate(join(data, first), 100);
    const r = await cli('index', 'verify', rel);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toContain(`${part(rel)}: index file is corrupt: the table cannot be read: `);
  }, 60_000);

  it('index lancedb-fts over a table with a row deleted does not keep it as built: exit 1 naming --rebuild, which repairs it', async () => {
    const { rel, table } = await copy();
    await table.delete(`id = '${passages[5].id}'`);
    const r = await cli('index', 'lancedb-fts', rel);
    expect(r.code, r.stdout).toBe(1); // before: "has it already (12 passages, …); nothing built", exit 0
    expect(r.stderr).toContain(`${part(rel)}: index file is corrupt: the table holds 11 rows where the doc store holds 12 passages; nothing built`);
    expect(r.stderr).toContain(`hint: rebuild the table from the doc store: lexcase index lancedb-fts ${rel} --rebuild`);
    const rebuilt = await cli('index', 'lancedb-fts', rel, '--rebuild');
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const v = await cli('index', 'verify', rel);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toContain(`its 12 rows are the doc store's ids, titles and texts (sha256 ${sum.slice(0, 12)}…, as the manifest records)`);
  }, 90_000);
});
