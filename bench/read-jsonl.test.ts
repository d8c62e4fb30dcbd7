import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPassagesJsonl, readPassagesJsonlStream } from './read-jsonl.js';
import { collect } from '../tests/support/collect.js';

const passages = [
  { id: 'p1', text: 'Res judicata — claim preclusion bars relitigation' },
  { id: 'p2', text: 'Cessionnaire de bonne foi: l’acquéreur évincé' },
];
const jsonl = passages.map((p) => JSON.stringify(p)).join('\n') + '\n';

describe('bench JSONL reader', () => {
  it('decodes a UTF-8 character split across two Buffer chunks of a pipe whole', async () => {
    const bytes = Buffer.from(jsonl, 'utf8');
    const cut = bytes.indexOf(Buffer.from('é', 'utf8')) + 1; // inside the two bytes of 'é'
    async function* chunks() {
      yield bytes.subarray(0, cut);
      yield bytes.subarray(cut);
    }
    expect(await collect(readPassagesJsonlStream(chunks()))).toEqual(passages);
  });

  it('reads a file through a buffer smaller than a line: every line whole (a UTF-8 character cut by a read too), blank lines and \\r\\n ends skipped, the buffer grown for a long line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-jsonl-'));
    try {
      const many = Array.from({ length: 40 }, (_, i) => ({ id: `q${i}`, text: `${'é'.repeat(i % 7)} line ${i} ${'x'.repeat((i * 37) % 300)}` }));
      const body = many.map((p, i) => JSON.stringify(p) + (i % 5 === 0 ? '\r\n\n' : '\n')).join('');
      writeFileSync(join(dir, 'm.jsonl'), body);
      for (const size of [1, 7, 64, 1 << 20]) expect(await collect(readPassagesJsonl(join(dir, 'm.jsonl'), size))).toEqual(many);
      // The same bytes through a pipe's chunks of every size cut anywhere.
      const bytes = Buffer.from(body, 'utf8');
      for (const size of [1, 3, 64]) {
        async function* chunks() {
          for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
        }
        expect(await collect(readPassagesJsonlStream(chunks()))).toEqual(many);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a file, with or without a final newline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-jsonl-'));
    try {
      writeFileSync(join(dir, 'a.jsonl'), jsonl);
      writeFileSync(join(dir, 'b.jsonl'), jsonl.trimEnd());
      expect(await collect(readPassagesJsonl(join(dir, 'a.jsonl')))).toEqual(passages);
      expect(await collect(readPassagesJsonl(join(dir, 'b.jsonl')))).toEqual(passages);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
