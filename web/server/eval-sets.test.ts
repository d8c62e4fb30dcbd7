/**
 * The explorer keeps a user set's topics and qrels while the files' bytes stay the same (their sha256,
 * content-key.ts), then reads them (corpora/topics.ts, corpora/qrels.ts). A qrels file rewritten between
 * the hash and the read was kept under the key of the bytes before: put back to those bytes, the
 * retrieval view evaluated against the judgements of the other file, with nothing to say so. What a read
 * made while a file changed is now not kept; the next request reads the files again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { evalSets, readTopicsQrels, type TopicsQrelsLoader } from './eval-sets.js';

const dir = mkdtempSync(join(tmpdir(), 'eval-sets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const topics = join(dir, 'topics.tsv');
const qrels = join(dir, 'qrels.txt');
// two judgements of topic q1: the gold passage is p1, or (the file mid-edit) p2
const A = 'q1 0 p1 1\nq1 0 p2 0\n';
const B = 'q1 0 p1 0\nq1 0 p2 1\n';

describe('a user eval set in the explorer', () => {
  it('a qrels file rewritten between its hash and its read is not kept under the earlier bytes: put back, it is read again', async () => {
    writeFileSync(topics, 'q1\tadverse possession of land\n');
    writeFileSync(qrels, A);
    let reads = 0;
    // the first read happens while the file holds B (an editor's save landing between the hash and the read)
    const loader: TopicsQrelsLoader = async (t, q) => {
      reads++;
      if (reads === 1) writeFileSync(qrels, B);
      return readTopicsQrels(t, q);
    };
    const [set] = evalSets([{ topics, qrels, name: 'mine' }], loader).filter((s) => s.kind === 'topics');
    expect((await set.load())[0].relevant).toEqual(['p2']); // what the read saw
    writeFileSync(qrels, A); // the bytes the first hash named
    const again = await set.load();
    expect(reads).toBe(2); // before: 1, the B judgements served under A's key
    expect(again[0].relevant).toEqual(['p1']);
    // unchanged bytes: kept, not read again
    expect((await set.load())[0].relevant).toEqual(['p1']);
    expect(reads).toBe(2);
  });
});
