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
  it('a count of one agrees with its verb and pronouns: "1 of 4 passages has …", never "1 of 4 passages have"', async () => {
    // audit: the soft-hyphen warning said "1 of 3 passages have …" and "does not find these passages"
    const f = join(tmp.dir, 'one-each.jsonl');
    const passages = [
      { id: 'shy', text: 'The court of appeals af\u00adfirmed the judgment for the plaintiff.' },
      { id: 'blank', text: '  ' },
      { id: 'stop', text: '(a) It is.' },
      { id: 'ok', text: 'Negligence requires a duty, a breach, causation and damages.' },
    ];
    await writeFile(f, `${passages.map((p) => JSON.stringify(p)).join('\n')}\n`);
    const r = await runCli(['index', 'build', f, '--out', join(tmp.dir, 'one-each-idx'), '--workers', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'one-each.jsonl: 1 of 4 passages has an invisible format character inside a word (soft hyphen U+00AD, zero-width space U+200B, word joiner U+2060, U+FEFF or a bidirectional control; the passage: "shy", the word "af\\u00adfirmed"): a query that spells the word without it does not find this passage',
    );
    expect(r.stderr).toContain(
      'one-each.jsonl: 1 of 4 passages has no text (empty or whitespace only; the passage: "blank"): indexed with no terms, bm25 never returns it, textbook qld ranks it by length alone',
    );
    expect(r.stderr).toContain(
      'one-each.jsonl: 1 of 4 passages has text but no index term under this analyzer (only stopwords, punctuation or symbols; the passage: "stop"): searched as a passage with no text — bm25 never returns it',
    );
    expect(r.stderr).not.toMatch(/1 of 4 passages (have|hold) /);
  });

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
    expect(r.stderr).toContain('mixed.jsonl: 1 of 43 passages holds U+FFFD replacement characters (the passage: "l1")');
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
    expect(r.stderr).toContain('termless.jsonl: 1 of 41 passages has no text (empty or whitespace only; the passage: "e1")');
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

  it('counts passages with an invisible format character inside a word (soft hyphen, zero-width space, bidi control) and names the first word, escaped', async () => {
    // A soft hyphen from a PDF or HTML's &shy; ends a token: "con\u00adtract" was indexed as "con" and
    // "tract", so `search contract` missed these passages and their length counted two terms, and the
    // build said nothing ("45 passages"). Thai writes U+200B between words and Persian ZWNJ inside
    // them: neither is counted.
    const f = join(tmp.dir, 'format.jsonl');
    const extra = [
      { id: 'shy1', text: 'A valid con\u00adtract requires offer, acceptance and consideration.' },
      { id: 'zw1', text: 'The de\u200bfendant breached the warranty of merchantability.' },
      { id: 'bidi1', text: 'Damages for breach of warr\u202eanty are measured at the time of tender.' },
      { id: 'thai', text: 'สัญญา\u200bซื้อขาย\u200bที่ดิน' },
      { id: 'fa', text: 'قرارداد می\u200cخواهد' },
      { id: 'edge', text: '\ufeffA deed is delivered \u200b when the grantor intends it.' },
      { id: 'lone', text: 'A trust \ud800 needs a res.' },
    ];
    await writeFile(f, `${real.slice(0, 38).join('\n')}\n${extra.map((p) => JSON.stringify(p)).join('\n')}\n`);
    const out = join(tmp.dir, 'format-idx');
    const r = await runCli(['index', 'build', f, '--out', out, '--workers', '0']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'format.jsonl: 3 of 45 passages have an invisible format character inside a word (soft hyphen U+00AD, zero-width space U+200B, word joiner U+2060, U+FEFF or a bidirectional control; the first: "shy1", the word "con\\u00adtract")',
    );
    // a lone surrogate is stored as U+FFFD, so it is counted with the replacement characters
    expect(r.stderr).toContain('format.jsonl: 1 of 45 passages holds U+FFFD replacement characters (the passage: "lone")');
    expect(r.stdout).toContain('45 passages (1 with U+FFFD replacement characters, 3 with invisible characters inside words)');
    expect((await readManifest(out)).corpus).toMatchObject({ passages: 45, replacementPassages: 1, formatCharPassages: 3 });
    const info = await runCli(['index', 'info', out]);
    expect(info.stdout).toContain('\n  notes     1 with U+FFFD replacement characters, 3 with invisible characters inside words\n');
    // what the note is about: the plain word does not find the passage that holds it with a soft hyphen
    const s = await runCli(['search', 'valid contract offer acceptance', '--index', out, '--json', '-k', '45']);
    const ids = (JSON.parse(s.stdout) as { hits: Array<{ id: string }> }).hits.map((h) => h.id);
    expect(ids).toContain('shy1');
    const plain = await runCli(['search', 'contract', '--index', out, '--json', '-k', '45']);
    expect((JSON.parse(plain.stdout) as { hits: Array<{ id: string }> }).hits.map((h) => h.id)).not.toContain('shy1');
    // the clean file of the first test: nothing recorded
    expect((await readManifest(join(tmp.dir, 'clean'))).corpus).not.toHaveProperty('formatCharPassages');
  });
});
