/**
 * The doc store's in-memory form (ids as bytes, Uint32 offsets, narrow source numbers): the same
 * passages, ids and sources come back as the corpus has them — by doc index, by id, in bulk — with
 * 1, 300 (> 256: 16-bit) and no repeated sources, non-ASCII ids, and ids looked up that it lacks.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Passage } from '../corpora/types.js';
import { LEGAL_CORPUS_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';
import { buildIndex } from './build.js';
import { fromArray, tempDir } from './build-test-helpers.js';
import { openDocStore } from './docstore.js';

const tmp = tempDir('lexcase-docstore-compact-');
afterAll(() => tmp.cleanup());

const REAL: Passage[] = bundledLines(LEGAL_CORPUS_PASSAGES)
  .slice(0, 700)
  .map((l) => JSON.parse(l) as { id: string; text: string })
  .map((r, i) => ({ id: i % 50 === 7 ? `${r.id}·§${i}·Zoë` : r.id, text: r.text, source: `court-${i % 300}` }));

describe('doc store held compactly', () => {
  it('ids(), idAt, indexOf, get and at agree with the corpus; 300 sources each come back; a missing id is -1', async () => {
    const out = join(tmp.dir, 'many-sources');
    await buildIndex(fromArray(REAL), { out, corpusName: 'legal', workers: 0 });
    const docs = await openDocStore(out);
    expect(docs.size).toBe(REAL.length);
    for (let i = 0; i < REAL.length; i++) {
      expect(docs.idAt(i)).toBe(REAL[i].id);
      expect(docs.indexOf(REAL[i].id)).toBe(i);
    }
    expect(docs.ids()).toEqual(REAL.map((p) => p.id));
    for (const i of [0, 7, 299, 300, 557, 699]) {
      const p = await docs.at(i);
      expect(p).toMatchObject({ id: REAL[i].id, text: REAL[i].text, source: REAL[i].source });
      expect((await docs.get(REAL[i].id))?.text).toBe(REAL[i].text);
      expect((await docs.fieldsAt(i)).source).toBe(REAL[i].source);
    }
    expect(docs.sourceMask(['court-299', 'court-0']).count).toBe(REAL.filter((p) => p.source === 'court-299' || p.source === 'court-0').length);
    expect(docs.indexOf(`${REAL[7].id}x`)).toBe(-1);
    expect(await docs.get('no-such-passage')).toBeUndefined();
    const all: Passage[] = [];
    for await (const p of docs.entries()) all.push(p);
    expect(all.map((p) => [p.id, p.source])).toEqual(REAL.map((p) => [p.id, p.source]));
    await docs.close();
  });
});
