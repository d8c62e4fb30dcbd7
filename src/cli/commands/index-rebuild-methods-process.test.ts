/**
 * `lexcase index build FILE --out IX` over an index IX built with `--methods bm25`, without
 * --methods, as a user runs it (the built CLI, a child process): the rebuild has the default methods
 * too, and stderr names the one it adds. Before, IX came back with qld, said only in the last line's
 * method list — while `--methods`'s help promised "the methods it has".
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../indexer/manifest.js';
import { runBuiltCli } from '../../../tests/support/run-built-cli.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../../tests/support/bundled-data.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-rebuild-methods-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('index build over an index without a default method', () => {
  it('names the default method the rebuild adds', async () => {
    const corpus = join(dir, 'passages.jsonl');
    writeFileSync(corpus, `${bundledLines(BAREXAM_PASSAGES).filter(Boolean).slice(0, 60).join('\n')}\n`);
    const ix = join(dir, 'ix');
    const first = await runBuiltCli(['index', 'build', corpus, '--out', ix, '--workers', '0', '--methods', 'bm25'], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const again = await runBuiltCli(['index', 'build', corpus, '--out', ix, '--workers', '0'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect((await readManifest(ix)).methods).toEqual(['bm25', 'qld']);
    expect(again.stderr).toContain(`${ix} had bm25; the rebuild adds the default qld (--methods bm25 rebuilds only what it had)\n`);
  }, 60_000);
});
