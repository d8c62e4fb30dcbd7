/**
 * `lexcase index build|info|verify|dense` and `lexcase search` (one query, --json, --topics
 * --run-file) as a user runs them: the built binary in a child process, exit codes, what it prints,
 * the files it writes, and one clear error (no stack trace) for a mistake.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, lexcase, STACK_TRACE } from '../support/spawn-cli.js';
import { writeUserFiles, type UserFiles } from './cli-fixtures.js';

let dir: string;
let idx: string;
let files: UserFiles;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-index-'));
  files = await writeUserFiles(join(dir, 'mine'));
  idx = join(dir, 'idx');
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noTrace = (r: { stdout: string; stderr: string }) => expect(STACK_TRACE.test(r.stdout + r.stderr), r.stderr).toBe(false);

describe('lexcase index', () => {
  it('build: a JSONL file into an index dir; --json reports the passages; nothing but the index is written', async () => {
    const r = await lexcase(['--json', 'index', 'build', files.passages, '--out', idx], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    noTrace(r);
    const out = JSON.parse(r.stdout);
    expect(JSON.stringify(out)).toMatch(/1,?449|1449/);
    const manifest = JSON.parse(readFileSync(join(idx, 'manifest.json'), 'utf8'));
    expect(manifest.corpus.passages).toBe(1449);
    expect(manifest.methods).toEqual(expect.arrayContaining(['bm25', 'qld']));
  });

  it('info: corpus, passage count and methods', async () => {
    const r = await lexcase(['index', 'info', idx]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/1,449/);
    expect(r.stdout).toMatch(/bm25/);
  });

  it('verify: ok on a sound index; a damaged file is named on stderr with exit 1 and no stack trace', async () => {
    const ok = await lexcase(['index', 'verify', idx]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout + ok.stderr).toMatch(/integrity ok/);
    const bad = join(dir, 'idx-damaged');
    cpSync(idx, bad, { recursive: true });
    const f = join(bad, 'sparse/postings.bin');
    const bytes = readFileSync(f);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    writeFileSync(f, bytes);
    const r = await lexcase(['index', 'verify', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/postings\.bin/);
    noTrace(r);
  });

  it('build refuses an --out that is a non-empty other directory, and says so in one message', async () => {
    const other = join(dir, 'not-an-index');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine');
    const r = await lexcase(['index', 'build', files.passages, '--out', other]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/OUT_DIR_REFUSED|not a lexcase index|not empty/i);
    expect(readFileSync(join(other, 'notes.txt'), 'utf8')).toBe('mine');
    noTrace(r);
  });

  it('dense: adds use-lite vectors to an existing index, and search --method dense then answers', async () => {
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, readFileSync(files.passages, 'utf8').split('\n').slice(0, 40).join('\n') + '\n');
    const sidx = join(dir, 'idx-small');
    expect((await lexcase(['-q', 'index', 'build', small, '--out', sidx])).code).toBe(0);
    const d = await lexcase(['index', 'dense', sidx, '--embedder', 'use-lite']);
    expect(d.code, d.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(sidx, 'manifest.json'), 'utf8')).methods).toContain('dense');
    const s = await lexcase(['--json', 'search', 'hearsay exception', '--index', sidx, '--method', 'dense', '-k', '3']);
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout).hits).toHaveLength(3);
  });

  it('lancedb-fts: adds LanceDB’s full-text index, and search --method lancedb-fts answers from it', async () => {
    const sidx = join(dir, 'idx-small');
    const f = await lexcase(['index', 'lancedb-fts', sidx]);
    expect(f.code, f.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(sidx, 'manifest.json'), 'utf8')).methods).toContain('lancedb-fts');
    const s = await lexcase(['--json', 'search', 'hearsay', '--index', sidx, '--method', 'lancedb-fts', '-k', '2']);
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout).hits.length).toBeGreaterThan(0);
  });
});

describe('lexcase search', () => {
  it('one query: k hits with rank, score and id; --json has the same hits', async () => {
    const r = await lexcase(['search', 'adverse possession hostile open notorious', '--index', idx, '-k', '3']);
    expect(r.code, r.stderr).toBe(0);
    const j = await lexcase(['--json', 'search', 'adverse possession hostile open notorious', '--index', idx, '-k', '3']);
    expect(j.code, j.stderr).toBe(0);
    const hits = JSON.parse(j.stdout).hits as { id: string; rank: number; score: number }[];
    expect(hits.map((h) => h.rank)).toEqual([1, 2, 3]);
    for (const h of hits) expect(r.stdout).toContain(h.id);
    expect(hits[0].score).toBeGreaterThanOrEqual(hits[2].score);
  });

  it('--explain prints each query term’s contribution', async () => {
    const r = await lexcase(['search', 'hearsay statement', '--index', idx, '--method', 'qld', '-k', '1', '--explain']);
    expect(r.code, r.stderr).toBe(0);
    // the analyzed terms (Porter-stemmed) with their score parts
    expect(r.stdout).toMatch(/^\s+statement\s+-?[\d.]+\s+\(tf \d+, df \d+, qtf 1\)$/m);
    expect(r.stdout).toMatch(/^\s+hearsai\s+-?[\d.]+\s+\(tf \d+, df \d+, qtf 1\)$/m);
  });

  it('--topics --run-file writes one TREC run (qid Q0 docid rank score tag) for every topic; --json summarises it', async () => {
    const run = join(dir, 'runs/bm25.txt');
    const r = await lexcase(['--json', 'search', '--topics', files.topics, '--index', idx, '--method', 'bm25', '-k', '100', '--run-file', run]);
    expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(run, 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^\S+ Q0 \S+ 1 -?[\d.]+ lexcase-bm25$/);
    expect(new Set(lines.map((l) => l.split(' ')[0])).size).toBe(124);
    expect(lines.length).toBe(124 * 100);
    const summary = JSON.parse(r.stdout);
    expect(JSON.stringify(summary)).toMatch(/124/);
  });

  it('--run-file naming a directory is one clear error, not an unhandled error event with a stack trace (issue 25)', async () => {
    const d = join(dir, 'a-dir');
    mkdirSync(d, { recursive: true });
    const r = await lexcase(['search', '--topics', files.topics, '--index', idx, '--run-file', d]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/a-dir/);
    noTrace(r);
  });

  it('a mistyped flag (--indx) gets a hint naming --index (issue 25)', async () => {
    const r = await lexcase(['search', 'q', '--indx', idx]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--index/);
    expect(r.stderr).toMatch(/did you mean|unknown option '--indx'/);
    expect(r.stderr).not.toMatch(/required option '--index <dir>' not specified\s*$/);
  });

  it('a missing index is one message naming it, exit 1', async () => {
    const r = await lexcase(['search', 'q', '--index', join(dir, 'nope')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nope/);
    noTrace(r);
  });

  it('does not write into the index it reads', async () => {
    const before = readFileSync(join(idx, 'manifest.json'), 'utf8');
    copyFileSync(join(idx, 'manifest.json'), join(dir, 'manifest.before'));
    expect((await lexcase(['search', 'easement', '--index', idx, '--method', 'qld'])).code).toBe(0);
    expect(readFileSync(join(idx, 'manifest.json'), 'utf8')).toBe(before);
    expect(existsSync(join(idx, 'dense'))).toBe(false);
  });
});
