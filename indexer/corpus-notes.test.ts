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
});
