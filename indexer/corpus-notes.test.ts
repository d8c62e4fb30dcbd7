/**
 * `index build` over passages search cannot use as the user may think — empty texts, and a Latin-1
 * file whose "é" the loader reads as U+FFFD — warns with the counts and the first passage, and
 * records the counts in the manifest's corpus section, shown by `index info` (corpus-notes.ts).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../tests/support/run-cli.js';
import { BAREXAM_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';
import { readManifest } from './manifest.js';
import { tempDir } from './build-test-helpers.js';

const tmp = tempDir('lexcase-corpus-notes-');
afterAll(() => tmp.cleanup());

/** 40 Bar Exam passages as JSONL lines, as a user's file holds them. */
const real = bundledLines(BAREXAM_PASSAGES).filter(Boolean).slice(0, 40);

describe('index build notes empty passages and replacement characters', () => {
  it('warns with the counts and the first passage, records them in manifest.corpus, and index info shows them', async () => {
    const f = join(tmp.dir, 'mixed.jsonl');
    // Two empty texts (one whitespace only) and a line written in Latin-1 ("café crème" as bytes e9, e8).
    const latin1 = Buffer.concat([
      Buffer.from('{"id":"l1","text":"caf'),
      Buffer.from([0xe9]),
      Buffer.from(' cr'),
      Buffer.from([0xe8]),
      Buffer.from('me latinone"}\n'),
    ]);
    await writeFile(
      f,
      Buffer.concat([
        Buffer.from(`${real.slice(0, 20).join('\n')}\n{"id":"e1","text":""}\n{"id":"e2","text":" \\n\\t "}\n`),
        latin1,
        Buffer.from(`${real.slice(20).join('\n')}\n`),
      ]),
    );
    const out = join(tmp.dir, 'idx');
    const r = await runCli(['index', 'build', f, '--out', out, '--workers', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('mixed.jsonl: 2 of 43 passages have no text (empty or whitespace only; the first: "e1")');
    expect(r.stderr).toContain('mixed.jsonl: 1 of 43 passages hold U+FFFD replacement characters (the first: "l1")');
    expect(r.stdout).toContain('43 passages (2 with no text, 1 with U+FFFD replacement characters)');
    expect((await readManifest(out)).corpus).toMatchObject({ passages: 43, emptyPassages: 2, replacementPassages: 1 });
    const info = await runCli(['index', 'info', out]);
    expect(info.stdout).toContain('\n  notes     2 with no text, 1 with U+FFFD replacement characters\n');

    // A clean file: no warning, nothing recorded.
    const clean = join(tmp.dir, 'clean.jsonl');
    await writeFile(clean, `${real.join('\n')}\n`);
    const c = await runCli(['index', 'build', clean, '--out', join(tmp.dir, 'clean'), '--workers', '0']);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).not.toMatch(/no text|U\+FFFD/);
    const m = await readManifest(join(tmp.dir, 'clean'));
    expect(m.corpus).not.toHaveProperty('emptyPassages');
    expect(m.corpus).not.toHaveProperty('replacementPassages');
  });

  it('counts passages with text but no index term (only stopwords, punctuation or symbols) apart from the empty ones, and names the first', async () => {
    // "(a) It is." and "§§ — ;" have text, but every token is a stopword or no token at all: like an
    // empty passage they have no term (bm25 never returns them, textbook qld ranks them by length
    // alone). Before, the build said "41 passages (1 with no text)" and nothing of these two.
    const f = join(tmp.dir, 'termless.jsonl');
    const extra = [
      { id: 's1', text: '(a) It is.' },
      { id: 'e1', text: '   ' },
      { id: 's2', text: '§§ — ;' },
    ];
    await writeFile(f, `${real.slice(0, 38).join('\n')}\n${extra.map((p) => JSON.stringify(p)).join('\n')}\n`);
    const out = join(tmp.dir, 'termless-idx');
    const r = await runCli(['index', 'build', f, '--out', out, '--workers', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('termless.jsonl: 1 of 41 passages have no text (empty or whitespace only; the first: "e1")');
    expect(r.stderr).toContain(
      'termless.jsonl: 2 of 41 passages have text but no index term under this analyzer (only stopwords, punctuation or symbols; the first: "s1")',
    );
    expect(r.stdout).toContain('41 passages (1 with no text, 2 with no index term)');
    const m = await readManifest(out);
    expect(m.corpus).toMatchObject({ passages: 41, emptyPassages: 1, termlessPassages: 2 });
    expect((m.sparse as { totalTokens: number }).totalTokens).toBeGreaterThan(0);
    const info = await runCli(['index', 'info', out]);
    expect(info.stdout).toContain('\n  notes     1 with no text, 2 with no index term\n');
    // the clean file of the test above: nothing recorded
    expect((await readManifest(join(tmp.dir, 'clean'))).corpus).not.toHaveProperty('termlessPassages');
  });
});
