/**
 * `lexcase index build FILE --out IX` over an index already in IX says it replaced it, and whether
 * the corpus is the same (its sha256), as a user runs it (the built CLI, a child process): 60 Bar
 * Exam passages, then the same 60 again, then 80.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { readManifest } from '../../../indexer/manifest.js';
import { runBuiltCli } from '../../../tests/support/run-built-cli.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../../tests/support/bundled-data.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-build-replaced-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('the closing line names the index it replaced: the same corpus, or another one with its passage count and sha256', async () => {
  const lines = bundledLines(BAREXAM_PASSAGES).filter(Boolean);
  writeFileSync(join(dir, 'p60.jsonl'), `${lines.slice(0, 60).join('\n')}\n`);
  writeFileSync(join(dir, 'p80.jsonl'), `${lines.slice(0, 80).join('\n')}\n`);
  const build = (file: string, json = false) =>
    runBuiltCli([...(json ? ['--json'] : []), 'index', 'build', file, '--out', 'ix', '--workers', '0', '--methods', 'bm25'], { cwd: dir });
  const first = await build('p60.jsonl');
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).not.toContain('replaced');
  const sum60 = (await readManifest(join(dir, 'ix'))).corpus.checksum;
  const same = await build('p60.jsonl');
  expect(same.code, same.stderr).toBe(0);
  expect(same.stdout).toContain(
    `; replaced the index that was in ix (the same passage ids and texts, sha256 ${sum60.slice(0, 12)}…; titles, doc ids and sources not compared)`,
  );
  const other = await build('p80.jsonl');
  expect(other.code, other.stderr).toBe(0);
  const sum80 = (await readManifest(join(dir, 'ix'))).corpus.checksum;
  // before: "built ix from p80.jsonl: 80 passages, methods bm25, …" and nothing about the 60-passage index it replaced
  expect(other.stdout).toContain(
    `; replaced the index of another corpus that was in ix: p60.jsonl, 60 passages (sha256 ${sum60.slice(0, 12)}…), now sha256 ${sum80.slice(0, 12)}…`,
  );
  const j = await build('p60.jsonl', true);
  expect(JSON.parse(j.stdout).replaced).toEqual({ corpus: 'p80.jsonl', passages: 80, checksum: sum80 });
}, 90_000);
