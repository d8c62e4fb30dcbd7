/**
 * README step 1 as a user runs it (the built binary, a child process, progress in a pipe):
 * `lexcase index build default --methods bm25,qld,dense --embedder use-lite` loads the shipped
 * prebuilt use-lite vectors of the default corpus (seconds) instead of re-embedding the corpus's passages
 * (405–536 s before), says so, and the sparse index's last progress line ends before the dense
 * step starts (the embedding time used to be charged to "[index default] … done in").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../../../tests/support/run-built-cli.js';
import { prebuiltDenseAllowed } from './index-cmd.js';
import { CORPORA } from '../../../corpora/registry.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-index-build-process-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lexcase index build default --methods bm25,qld,dense (README step 1)', () => {
  it('loads the shipped vectors instead of embedding, and each progress line is charged to its own step', async () => {
    const env = { LEXCASE_PROGRESS: 'lines', LEXCASE_PROGRESS_INTERVAL: '0.001' };
    const r = await runBuiltCli(['index', 'build', 'default', '--out', 'idx', '--methods', 'bm25,qld,dense', '--embedder', 'use-lite'], {
      cwd: dir,
      env,
      timeoutMs: 90_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/methods bm25, qld, dense \(dense from the shipped vectors default-use-lite\)/);
    expect(r.stderr).toContain(
      'dense: loaded the shipped use-lite vectors default-use-lite (title + text cut at 128 words, of which use-lite reads the first 128 tokens) instead of embedding',
    );
    expect(r.stderr).toMatch(
      new RegExp(
        `dense: \\d,\\d{3} of ${CORPORA.default.passages.toLocaleString('en-US')} passages were longer than the use-lite model's 128 tokens: embedded from their first 128 tokens`,
      ),
    );
    const lines = r.stderr.split('\n');
    const n = CORPORA.default.passages.toLocaleString('en-US');
    const sparseDone = lines.findIndex((l) => l.startsWith(`[index default] ${n}/${n} passages (100%) `) && /done in \d+s$/.test(l));
    const firstDense = lines.findIndex((l) => l.startsWith('[embedding'));
    expect(sparseDone).toBeGreaterThanOrEqual(0);
    expect(firstDense).toBeGreaterThan(sparseDone);
    expect(lines.filter((l) => l.startsWith('[index default]')).slice(-1)[0]).toBe(lines[sparseDone]);

    const s = await runBuiltCli(['--json', 'search', 'adverse possession of land', '--index', 'idx', '--method', 'dense', '-k', '3'], { cwd: dir });
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout).hits).toHaveLength(3);
  }, 120_000);

  it('embeds instead when a flag asks for other vectors', () => {
    expect(prebuiltDenseAllowed({})).toBe(true);
    expect(prebuiltDenseAllowed({ embedder: 'use-lite' })).toBe(true);
    expect(prebuiltDenseAllowed({ embedder: 'use-lite', maxWords: '128' })).toBe(true);
    expect(prebuiltDenseAllowed({ maxWords: 256 })).toBe(false);
    expect(prebuiltDenseAllowed({ embedder: 'transformers' })).toBe(false);
    expect(prebuiltDenseAllowed({ embedder: 'openai', model: 'x' })).toBe(false);
    expect(prebuiltDenseAllowed({ modelDir: 'm' })).toBe(false);
  });
});
