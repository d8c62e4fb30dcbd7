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
