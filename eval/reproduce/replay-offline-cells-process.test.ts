/**
 * `lexcase reproduce <recipe> --replay DIR` over a recipe's retrieval cells (no model: the cell
 * searches again), as a user runs it (the built CLI, a child process). `--replay` promises the
 * recorded reproduction again, every results.jsonl byte-identical:
 * - replayed over the index it was recorded on, the cell's results.jsonl is the recording's, byte for
 *   byte (before: each line's `ms` was the replay's own time);
 * - replayed over another index (here: built with stemmer=none where the recording's used Porter),
 *   the cell is refused naming the setting (indexContent.analyzer.stemmer), and no results are written (before: the cell searched the
 *   other index, wrote other figures — Recall@1000 0.4 became 0.2 on the bundled index — and the
 *   command exited 0 as a replay).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../../tests/support/run-built-cli.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../tests/support/bundled-data.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-replay-offline-'));
const porter = join(root, 'ix-porter');
const none = join(root, 'ix-none');
const recorded = join(root, 'recorded');
const cell = (dir: string) => join(dir, 'runs', 'bm25');
const reproduce = (...args: string[]) => runBuiltCli(['reproduce', 'case-table3', '--only', 'bm25', '--limit', '4', ...args], { cwd: root });

beforeAll(async () => {
  const corpus = join(root, 'passages.jsonl');
  writeFileSync(corpus, `${bundledLines(BAREXAM_PASSAGES).filter(Boolean).slice(0, 400).join('\n')}\n`);
  for (const [out, analyzer] of [
    [porter, []],
    [none, ['--analyzer', 'stemmer=none']],
  ] as const) {
    const r = await runBuiltCli(['index', 'build', corpus, '--out', out, '--workers', '0', ...analyzer], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
  }
  const r = await reproduce('--index', porter, '--run-dir', recorded);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('reproduce --replay: a retrieval cell', () => {
  it('replayed over the recorded index writes the recording’s results.jsonl byte for byte', async () => {
    const out = join(root, 'same');
    const r = await reproduce('--index', porter, '--replay', recorded, '--run-dir', out);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(cell(out), 'results.jsonl'), 'utf8')).toBe(readFileSync(join(cell(recorded), 'results.jsonl'), 'utf8'));
  }, 60_000);

  it('replayed over another index is refused naming the field, and writes no results', async () => {
    const out = join(root, 'other');
    const r = await reproduce('--index', none, '--replay', recorded, '--run-dir', out);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /run bm25 failed: run \S*recorded\/runs\/bm25: was recorded with indexContent\.analyzer\.stemmer = "porter", this replay has "none"; replay it with the recorded run's flags\n/,
    );
    expect(existsSync(join(cell(out), 'results.jsonl'))).toBe(false);
  }, 60_000);
});
