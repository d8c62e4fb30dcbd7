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

it('the closing line names the index it replaced: the same corpus (ids, texts, titles, doc ids, sources), the same texts under other titles or sources, or another one with its passage count and sha256', async () => {
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
    `; replaced the index that was in ix (the same passages: ids, texts, titles, doc ids and sources; sha256 ${sum60.slice(0, 12)}…)`,
  );
  // the same ids and texts under other titles (what --aggregate maxp and dense vectors read): said, not "the same corpus"
  const retitled = lines.slice(0, 60).map((l, i) => JSON.stringify({ ...JSON.parse(l), title: `retitled ${i}` }));
  writeFileSync(join(dir, 'p60-retitled.jsonl'), `${retitled.join('\n')}\n`);
  const titles = await build('p60-retitled.jsonl', true);
  expect(titles.code, titles.stderr).toBe(0);
  expect(JSON.parse(titles.stdout).replaced).toEqual({ corpus: 'p60.jsonl', passages: 60, checksum: sum60, changed: ['titles', 'sources'] });
  const back = await build('p60.jsonl');
  expect(back.stdout).toContain(
    `; replaced the index that was in ix (the same passage ids and texts, sha256 ${sum60.slice(0, 12)}…, but other titles, sources)`,
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
