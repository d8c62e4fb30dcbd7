import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WALK_WASM_BASE64 } from './walk-wasm.js';
import { createKernel } from './kernel.js';
// @ts-expect-error — a plain .mjs build script, no type declarations
import { compileWalkWat } from '../../../scripts/compile-wat.mjs';

describe('the WebAssembly posting walks', () => {
  it('the committed walk-wasm.ts is exactly what walk.wat compiles to (npm run build:kernel)', async () => {
    const wat = readFileSync(fileURLToPath(new URL('./walk.wat', import.meta.url)), 'utf8');
    const bytes: Uint8Array = await compileWalkWat(wat);
    expect(Buffer.from(bytes).toString('base64')).toBe(WALK_WASM_BASE64);
  });

  it('adds BM25 and table weights exactly as the JavaScript loop does, and stops at the piece limit', () => {
    const n = 5000;
    const low = new Uint16Array(n);
    const tfs = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      low[i] = Math.floor((i * 65535) / n);
      tfs[i] = 1 + ((i * 7919) % 13);
    }
    const B = 65536;
    const norm = Float64Array.from({ length: B }, (_, i) => 0.3 + ((i * 31) % 101) / 37);
    const table = Float64Array.from({ length: 256 }, (_, t) => (t ? Math.log1p(t / 0.37) * 1.7 : 0));
    const lim = 40000;
    const p1 = 2.718281828;
    // JavaScript reference.
    const jsB = new Float64Array(B);
    const jsT = new Float64Array(B);
    let stop = 0;
    for (let p = 0; p < n; p++) {
      const l = low[p];
      if (l >= lim) break;
      jsB[l] = jsB[l] + (p1 * tfs[p]) / (tfs[p] + norm[l]);
      jsT[l] = jsT[l] + table[tfs[p]];
      stop = p + 1;
    }
    const lowOff = 0,
      tfOff = n * 2,
      normOff = 16384,
      scoresOff = normOff + B * 8,
      tableOff = scoresOff + B * 8;
    const k = createKernel(tableOff + 256 * 8);
    const mem = k.memory.buffer;
    new Uint16Array(mem, lowOff, n).set(low);
    new Uint8Array(mem, tfOff, n).set(tfs);
    new Float64Array(mem, normOff, B).set(norm);
    new Float64Array(mem, tableOff, 256).set(table);
    const scores = new Float64Array(mem, scoresOff, B);
    scores.fill(0);
    expect(k.bm25(lowOff, tfOff, 0, n, lim, 0, normOff, scoresOff, p1)).toBe(stop);
    expect(Array.from(scores)).toEqual(Array.from(jsB));
    scores.fill(0);
    expect(k.table(lowOff, tfOff, 0, n, lim, 0, tableOff, scoresOff)).toBe(stop);
    expect(Array.from(scores)).toEqual(Array.from(jsT));
  });

  it('keeps the largest score the BM25 walk stored (storedMax, the bound blocked-taat.ts skips a block by): no untouched doc, reset by resetMax, per list and per run of lists', () => {
    // Lists of one block as blocked-taat.ts walks them: scores already in the block (earlier lists),
    // one untouched doc holding the block's largest (storedMax must not see it), odd counts of postings.
    const B = 16384;
    const lists: { low: Uint16Array; tf: Uint8Array; p1: number }[] = [0.02, 0.3, 0.004].map((d, r) => {
      const docs: number[] = [];
      for (let i = 0; i < B; i++) if (((i * (r + 7) * 2654435761) >>> 20) % 1000 < d * 1000 && i !== 777) docs.push(i);
      if (docs.length % 2 === 0) docs.pop();
      return { low: Uint16Array.from(docs), tf: Uint8Array.from(docs, (i) => 1 + ((i * 31 + r) % 7)), p1: 1.1 + r * 0.7 };
    });
    // and a short list whose block-wide largest score is stored by the walk's last, scalar step
    lists.push({ low: Uint16Array.of(100, 200, 300), tf: Uint8Array.of(1, 1, 255), p1: 50 });
    const norm = Float64Array.from({ length: B }, (_, i) => 0.4 + ((i * 13) % 97) / 41);
    const start = Float64Array.from({ length: B }, (_, i) => ((i * 7) % 11) * 0.05);
    start[777] = 1e6;
    const normOff = 0,
      scoresOff = normOff + B * 8,
      descOff = scoresOff + B * 8;
    let at = descOff + 24 * lists.length;
    const k = createKernel(at + lists.reduce((s, l) => s + l.low.length * 3 + 16, 0));
    const mem = k.memory.buffer;
    new Float64Array(mem, normOff, B).set(norm);
    const place = lists.map((l) => {
      const lowOff = at;
      new Uint16Array(mem, lowOff, l.low.length).set(l.low);
      const tfOff = lowOff + l.low.length * 2;
      new Uint8Array(mem, tfOff, l.tf.length).set(l.tf);
      at = (tfOff + l.tf.length + 8) & ~7;
      return { lowOff, tfOff };
    });
    const di = new Int32Array(mem, descOff, 6 * lists.length);
    const df = new Float64Array(mem, descOff, 3 * lists.length);
    lists.forEach((l, r) => {
      di.set([place[r].lowOff, place[r].tfOff, 0, l.low.length], 6 * r);
      df[3 * r + 2] = l.p1;
    });
    // JavaScript reference: each list in order; the largest score its postings stored.
    const js = Float64Array.from(start);
    const perList = lists.map((l) => {
      let m = 0;
      for (let p = 0; p < l.low.length; p++) {
        const i = l.low[p];
        js[i] = js[i] + (l.p1 * l.tf[p]) / (l.tf[p] + norm[i]);
        m = Math.max(m, js[i]);
      }
      return m;
    });
    const jsMax = Math.max(...perList);
    expect(jsMax).toBeLessThan(1e6);
    const scores = new Float64Array(mem, scoresOff, B);
    scores.set(start);
    k.resetMax();
    expect(k.storedMax()).toBe(0);
    lists.forEach((l, r) => {
      expect(k.bm25(place[r].lowOff, place[r].tfOff, 0, l.low.length, B, 0, normOff, scoresOff, l.p1)).toBe(l.low.length);
      expect(k.storedMax()).toBe(Math.max(...perList.slice(0, r + 1)));
    });
    expect(Array.from(scores)).toEqual(Array.from(js));
    // the last list alone after a reset: its own largest only
    k.resetMax();
    scores.set(start);
    const last = lists.length - 1;
    k.bm25(place[last].lowOff, place[last].tfOff, 0, lists[last].low.length, B, 0, normOff, scoresOff, lists[last].p1);
    const lastAlone = Math.max(0, ...Array.from(lists[last].low, (i, p) => start[i] + (lists[last].p1 * lists[last].tf[p]) / (lists[last].tf[p] + norm[i])));
    expect(k.storedMax()).toBe(lastAlone);
    // a run of lists, as blocked-taat.ts's walkTerms calls it
    scores.set(start);
    k.resetMax();
    k.bm25Lists(descOff, lists.length, B, 0, normOff, scoresOff);
    expect(Array.from(scores)).toEqual(Array.from(js));
    expect(k.storedMax()).toBe(jsMax);
    expect(Array.from(di.filter((_, i) => i % 6 === 2))).toEqual(lists.map((l) => l.low.length));
  });

  it("walks BM25 by length over u16 and u8 lengths (bm25LenLists, bm25Len8Lists): the same scores, largest score and cursors as bm25Lists over each doc's norm, within a piece", () => {
    // A block piece as walkTerms gives it (dOff 5000, lim 9000): lists whose postings run past the
    // piece, odd counts (the scalar step), doc lengths 0..255 (bytes with the top bit set too)
    // through a table of bm25Norm values.
    const B = 16384;
    const dOff = 5000;
    const lim = 9000;
    const len = Uint16Array.from({ length: B }, (_, i) => ((i * 2654435761) >>> 7) % 256);
    const table = Float64Array.from({ length: 256 }, (_, dl) => 0.9 * (1 - 0.4 + (0.4 * dl) / 81.757));
    const norm = Float64Array.from(len, (dl) => table[dl]);
    const lists = [0.05, 0.4, 0.01].map((d, r) => {
      const low: number[] = [];
      for (let l = 0; l < 11000; l++) if (((l * (r + 5) * 2246822519) >>> 20) % 1000 < d * 1000) low.push(l);
      return { low: Uint16Array.from(low), tf: Uint8Array.from(low, (l) => 1 + ((l * 7 + r) % 5)), p1: 1.3 + r };
    });
    const start = Float64Array.from({ length: B }, (_, i) => ((i * 3) % 7) * 0.1);
    const normOff = 0,
      lenOff = normOff + B * 8,
      len8Off = lenOff + B * 2,
      tabOff = len8Off + B,
      scoresOff = tabOff + 256 * 8 + 8,
      descOff = scoresOff + B * 8;
    let at = descOff + 24 * lists.length;
    const k = createKernel(at + lists.reduce((s, l) => s + l.low.length * 3 + 16, 0));
    const mem = k.memory.buffer;
    new Float64Array(mem, normOff, B).set(norm);
    new Uint16Array(mem, lenOff, B).set(len);
    new Uint8Array(mem, len8Off, B).set(len);
    new Float64Array(mem, tabOff, 256).set(table);
    const di = new Int32Array(mem, descOff, 6 * lists.length);
    const df = new Float64Array(mem, descOff, 3 * lists.length);
    lists.forEach((l, r) => {
      new Uint16Array(mem, at, l.low.length).set(l.low);
      new Uint8Array(mem, at + l.low.length * 2, l.tf.length).set(l.tf);
      di.set([at, at + l.low.length * 2, 0, l.low.length], 6 * r);
      df[3 * r + 2] = l.p1;
      at = (at + l.low.length * 3 + 8) & ~7;
    });
    const scores = new Float64Array(mem, scoresOff, B);
    const walk = (byLength: 0 | 1 | 2) => {
      scores.set(start);
      lists.forEach((_, r) => (di[6 * r + 2] = 0));
      k.resetMax();
      if (byLength === 2) k.bm25Len8Lists(descOff, lists.length, lim, dOff, len8Off, tabOff, scoresOff);
      else if (byLength === 1) k.bm25LenLists(descOff, lists.length, lim, dOff, lenOff, tabOff, scoresOff);
      else k.bm25Lists(descOff, lists.length, lim, dOff, normOff, scoresOff);
      return { scores: Array.from(scores), max: k.storedMax(), cursors: lists.map((_, r) => di[6 * r + 2]) };
    };
    const byNorm = walk(0);
    const byLength = walk(1);
    const byLength8 = walk(2);
    // every list stopped inside the piece, and the walk added something
    byNorm.cursors.forEach((c, r) => expect(c).toBe(lists[r].low.findIndex((l) => l >= lim)));
    expect(byNorm.scores).not.toEqual(Array.from(start));
    expect(byLength).toEqual(byNorm);
    expect(byLength8).toEqual(byNorm);
  });

  it('adds fused dense runs exactly as one JavaScript pass per list, reading each row through its own address', () => {
    // Three lists' tf bytes at unrelated places (as resident dense lists are), docs 3..1000 of a block.
    const nLists = 3;
    const B = 1024;
    const i0 = 3;
    const i1 = 1000; // odd count of docs: the scalar tail of the f64x2 walk runs too
    const rowAt = [70_000, 30_000, 140_001]; // byte of block-local doc 0 of each row (unaligned too)
    const tf = (r: number, i: number) => ((i * (r + 3) * 2654435761) >>> 27) % 9; // 0 = absent
    const norm = Float64Array.from({ length: B }, (_, i) => 0.35 + ((i * 17) % 89) / 31);
    const p1 = [1.25, 0.5, 3.0000001];
    const tables = p1.map((p) => Float64Array.from({ length: 256 }, (_, t) => (t ? p * Math.log1p(t / 0.73) : 0)));
    const start = Float64Array.from({ length: B }, (_, i) => (i % 5) * 0.1);
    const jsB = Float64Array.from(start);
    const jsT = Float64Array.from(start);
    for (let r = 0; r < nLists; r++)
      for (let i = i0; i < i1; i++) {
        const t = tf(r, i);
        jsB[i] = jsB[i] + (p1[r] * t) / (t + norm[i]);
        jsT[i] = jsT[i] + tables[r][t];
      }
    const rowsOff = 64,
      p1Off = 128,
      normOff = 1024,
      scoresOff = normOff + B * 8,
      tablesOff = scoresOff + B * 8;
    const k = createKernel(200_000);
    const mem = k.memory.buffer;
    const bytes = new Uint8Array(mem);
    for (let r = 0; r < nLists; r++) for (let i = 0; i < B; i++) bytes[rowAt[r] + i] = tf(r, i);
    new Int32Array(mem, rowsOff, nLists).set(rowAt);
    new Float64Array(mem, p1Off, nLists).set(p1);
    new Float64Array(mem, normOff, B).set(norm);
    tables.forEach((t, r) => new Float64Array(mem, tablesOff + r * 2048, 256).set(t));
    const scores = new Float64Array(mem, scoresOff, B);
    scores.set(start);
    k.denseBm25(rowsOff, nLists, p1Off, normOff, scoresOff, i0, i1);
    expect(Array.from(scores)).toEqual(Array.from(jsB));
    scores.set(start);
    k.denseTable(rowsOff, nLists, tablesOff, scoresOff, i0, i1);
    expect(Array.from(scores)).toEqual(Array.from(jsT));
  });
});
