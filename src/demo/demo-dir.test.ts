/**
 * The demo writes only where it may (src/demo/demo-dir.ts): a new or empty dir, or an earlier
 * demo's — whose report.md / report.json / index it recognises as its own and refreshes. A dir with
 * anything the demo did not make is refused before any step runs, and left as it was. (The user's
 * report.md case through the built CLI: tests/cli/demo.test.ts.)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LexcaseError } from '../../core/errors.js';
import { buildIndex } from '../../indexer/build.js';
import { treeOf } from '../../tests/support/tree-snapshot.js';
import type { DemoStep } from '../../eval/demo/types.js';
import { runDemo } from './run-demo.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-demo-dir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const note: DemoStep = { name: 'note', run: async (ctx) => void ctx.sections.push({ title: 'Note', markdown: 'a step ran' }) };

/** runDemo into `dir` is OUT_DIR_REFUSED and `watch` (default `dir`) is byte-identical after; the message. */
async function refused(dir: string, watch = dir): Promise<string> {
  const before = treeOf(watch);
  const e = await runDemo({ dir, steps: [note] }).then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(LexcaseError);
  expect((e as LexcaseError).code).toBe('OUT_DIR_REFUSED');
  expect(treeOf(watch)).toEqual(before);
  return (e as Error).message;
}

describe('where the demo writes', () => {
  it("a new dir, then the same dir again (an earlier demo's: its reports and index are refreshed)", async () => {
    const d = join(root, 'fresh');
    await runDemo({ dir: d, steps: [note] });
    await buildIndex([{ id: 'p1', text: 'adverse possession requires open use' }], { out: join(d, 'index'), workers: 0 });
    writeFileSync(join(d, 'recall-at-k.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    const again = await runDemo({ dir: d, steps: [note] });
    expect(readFileSync(join(d, 'report.md'), 'utf8')).toBe(again.markdown);
  });

  it.each([
    ['a file of the user beside the demo files', { 'notes.txt': 'mine' }, /it is a non-empty directory that is not a lexcase demo dir \(it holds notes\.txt\)/],
    ["the user's report.md", { 'report.md': '# Brief\n' }, /report\.md is not a lexcase demo report, so the demo would overwrite a file it did not make/],
    ["the user's report.json", { 'report.json': '{"kind":"invoice"}' }, /report\.json is not a lexcase demo report/],
    ['an index/ that is not a lexcase index', { 'index/manifest.json': '{"name":"my-app"}' }, /index is not a lexcase index/],
  ])('refused: %s', async (name, files, message) => {
    const d = join(root, name.replace(/\W+/g, '-'));
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(join(d, f, '..'), { recursive: true });
      writeFileSync(join(d, f), text);
    }
    expect(await refused(d)).toMatch(message);
  });

  it('the working directory and a dir inside an index are refused', async () => {
    const idx = join(root, 'idx');
    await buildIndex([{ id: 'p1', text: 'an easement by necessity' }], { out: idx, workers: 0 });
    expect(await refused(join(idx, 'demo'), idx)).toMatch(/it lies inside a lexcase index/);
    const cwd = process.cwd();
    const here = join(root, 'here');
    mkdirSync(here);
    writeFileSync(join(here, 'x.txt'), 'x');
    process.chdir(here);
    try {
      expect(await refused('.')).toMatch(/it is the working directory/);
    } finally {
      process.chdir(cwd);
    }
  });
});
