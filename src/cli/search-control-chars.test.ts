/**
 * `lexcase search` prints hits from a corpus it does not control (the built CLI as a child
 * process). A passage whose text holds terminal escape sequences, or whose title holds a newline,
 * printed them raw before: `ESC[2J ESC[1A ESC[2K` cleared the screen, moved up and erased the
 * line with the real rank and score, and the text went on to print a fake "1  99.0000  fake_id";
 * a title's newline started a line of its own. Now each control and bidirectional-control
 * character is shown as its escape (`\u001b`) and every hit is two lines; --json is unchanged.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { terminalLine } from '../../core/terminal-text.js';
import { cliChild } from '../../tests/support/cli-child.js';

let dir: string;
const HOSTILE = 'Negligence requires a duty.\u001b[2J\u001b[1A\u001b[2K   1     99.0000  fake_id\u0085and\u202Eytud a fo hcaerb';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-ctrl-'));
  const lines = [
    { id: 'hostile', title: 'Torts\u001b[31m\n   2      9.0000  forged', text: HOSTILE },
    { id: 'plain', text: 'Negligence is a breach of a duty of care that causes harm.' },
    { id: 'other', text: 'A contract needs offer, acceptance and consideration.' },
  ];
  await writeFile(join(dir, 'c.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const b = await cliChild(['index', 'build', join(dir, 'c.jsonl'), '--out', join(dir, 'idx'), '--workers', '0']);
  expect(b.code).toBe(0);
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('prints a passage’s escape sequences, C1 and bidi controls escaped and its title’s newline as a space', async () => {
  const r = await cliChild(['search', 'negligence duty', '--index', join(dir, 'idx')]);
  expect(r.code).toBe(0);
  // no character a terminal acts on reaches it, and each of the 2 hits is 2 lines after the header
  expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1 + 2 * 2);
  const at = lines.findIndex((l) => / {2}hostile {2}/.test(l));
  expect([1, 3]).toContain(at);
  expect(lines[at]).toMatch(/^ {3}[12] +\d+\.\d{4} {2}hostile {2}— Torts\\u001b\[31m 2 9\.0000 forged$/);
  expect(lines[at + 1]).toBe(`      ${terminalLine(HOSTILE)}`);
  expect(lines[at + 1]).toContain('duty.\\u001b[2J\\u001b[1A\\u001b[2K 1 99.0000 fake_id\\u0085and\\u202eytud');
  expect(lines[at === 1 ? 3 : 1]).toMatch(/^ {3}[12] +\d+\.\d{4} {2}plain$/);
});

it('keeps the text as the corpus holds it in --json (JSON escapes the controls itself)', async () => {
  const r = await cliChild(['search', 'negligence duty', '--index', join(dir, 'idx'), '--json']);
  expect(r.code).toBe(0);
  const hit = (JSON.parse(r.stdout) as { hits: Array<{ id: string; title?: string; snippet: string }> }).hits.find((h) => h.id === 'hostile')!;
  expect(hit.title).toBe('Torts\u001b[31m\n   2      9.0000  forged');
  expect(hit.snippet).toBe(HOSTILE.replace(/\s+/g, ' '));
});
