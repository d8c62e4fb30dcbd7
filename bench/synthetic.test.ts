import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVocabulary, createZipfSampler, syntheticPassages, syntheticPassagesSync, syntheticQueries, writeSyntheticJsonl } from './synthetic.js';

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
const take = (n: number, seed = 7) => [...syntheticPassagesSync({ n, seed })];

describe('synthetic corpus generator', () => {
  it('is deterministic in its seed and differs across seeds', () => {
    const a = take(50, 7);
    const b = take(50, 7);
    const c = take(50, 8);
    expect(a).toEqual(b);
    expect(a.map((p) => p.text)).not.toEqual(c.map((p) => p.text));
    expect(syntheticQueries({ count: 5, seed: 7 })).toEqual(syntheticQueries({ count: 5, seed: 7 }));
    expect(syntheticQueries({ count: 5, seed: 7 })).not.toEqual(syntheticQueries({ count: 5, seed: 8 }));
  });

  it('passage lengths stay in 60–200 words with a mean near 130', () => {
    const lens = take(3000).map((p) => words(p.text).length);
    expect(Math.min(...lens)).toBeGreaterThanOrEqual(60);
    expect(Math.max(...lens)).toBeLessThanOrEqual(200);
    const mean = lens.reduce((a, b) => a + b, 0) / lens.length;
    expect(mean).toBeGreaterThan(125);
    expect(mean).toBeLessThan(135);
    // Bell-shaped, not uniform: most passages fall in the middle band.
    expect(lens.filter((l) => l >= 95 && l <= 165).length / lens.length).toBeGreaterThan(0.7);
  });

  it('word frequencies follow a Zipf law (log-log slope near −1 over ranks 1–1000)', () => {
    const counts = new Map<string, number>();
    for (const p of take(3000)) for (const w of words(p.text)) counts.set(w, (counts.get(w) ?? 0) + 1);
    const freq = [...counts.values()].sort((a, b) => b - a);
    // Least-squares slope of log(freq) on log(rank) for ranks 1..1000.
    const xs: number[] = [];
    const ys: number[] = [];
    for (let r = 1; r <= 1000; r++) {
      xs.push(Math.log(r));
      ys.push(Math.log(freq[r - 1]));
    }
    const mx = xs.reduce((a, b) => a + b) / xs.length;
    const my = ys.reduce((a, b) => a + b) / ys.length;
    let num = 0;
    let den = 0;
    for (let i = 0; i < xs.length; i++) {
      num += (xs[i] - mx) * (ys[i] - my);
      den += (xs[i] - mx) ** 2;
    }
    const slope = num / den;
    expect(slope).toBeGreaterThan(-1.2);
    expect(slope).toBeLessThan(-0.8);
    // Head and long tail: the top word is ~10× the 10th; thousands of distinct words occur.
    expect(freq[0] / freq[9]).toBeGreaterThan(5);
    expect(freq[0] / freq[9]).toBeLessThan(20);
    expect(counts.size).toBeGreaterThan(20_000);
  });

  it('the alias sampler draws ranks in proportion to 1/r', () => {
    const z = createZipfSampler(1000, 1);
    let seed = 1;
    const u = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const hist = new Uint32Array(1000);
    const draws = 200_000;
    for (let i = 0; i < draws; i++) hist[z.sample(u(), u())]++;
    for (const r of [0, 1, 9, 99]) expect(hist[r] / draws).toBeCloseTo(z.probability(r), 2);
  });

  it('queries are 140–170 words, mostly common collection terms', () => {
    const vocab = createVocabulary(42, 200_000);
    const top = new Set(vocab.slice(0, 1000));
    const qs = syntheticQueries({ count: 40, seed: 42 });
    for (const q of qs) {
      const ws = words(q);
      expect(ws.length).toBeGreaterThanOrEqual(140);
      expect(ws.length).toBeLessThanOrEqual(170);
      expect(ws.filter((w) => top.has(w)).length / ws.length).toBeGreaterThan(0.5);
    }
  });

  it('streams passages with unique ids and writes the same corpus as JSONL', async () => {
    const ids = new Set<string>();
    const streamed: string[] = [];
    for await (const p of syntheticPassages({ n: 5000, seed: 3 })) {
      ids.add(p.id);
      if (streamed.length < 3) streamed.push(p.text);
    }
    expect(ids.size).toBe(5000);
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-syn-'));
    try {
      const stats = await writeSyntheticJsonl(join(dir, 'c.jsonl'), { n: 200, seed: 3 });
      const lines = (await readFile(join(dir, 'c.jsonl'), 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(200);
      const parsed = lines.map((l) => JSON.parse(l) as { text: string });
      expect(parsed.slice(0, 3).map((p) => p.text)).toEqual(streamed);
      expect(stats.rawTextBytes).toBe(parsed.reduce((a, p) => a + Buffer.byteLength(p.text), 0));
      expect(stats.passages).toBe(200);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the worst-case 'zipf' profile", () => {
  it('draws generated tokens only (no function or legal words) from Zipf s = 1.07 over 50K, with 170-token queries', async () => {
    const { ZIPF_WORST, createVocabulary, legalWords, syntheticPassagesSync, syntheticQueries } = await import('./synthetic.js');
    expect(ZIPF_WORST).toEqual({ vocabSize: 50_000, zipfExponent: 1.07, queryWords: 170 });
    const vocab = createVocabulary(42, ZIPF_WORST.vocabSize, true);
    expect(vocab.length).toBe(50_000);
    const legal = new Set(legalWords());
    const counts = new Map<string, number>();
    let n = 0;
    for (const p of syntheticPassagesSync({ n: 3000, seed: 42, profile: 'zipf' })) {
      const words = p.text.toLowerCase().replace(/\./g, '').split(' ');
      expect(words.length).toBeGreaterThanOrEqual(60);
      expect(words.length).toBeLessThanOrEqual(200);
      for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1), n++;
    }
    for (const w of ['the', 'of', 'and', 'court', 'contract']) expect(counts.has(w)).toBe(false);
    // Only generated syllable strings (a few may coincide with a legal word, e.g. "sale").
    expect([...counts.keys()].filter((w) => legal.has(w)).length).toBeLessThan(10);
    expect(vocab.slice(0, 20).every((w) => /^([bcdfghjklmnprstvwz][aeiou][bcdfghjklmnprstvwz]?){2,4}$/.test(w))).toBe(true);
    // The most frequent token's share matches p(1) = 1/H(50000, 1.07) (≈ 0.1) within a few percent.
    let h = 0;
    for (let r = 1; r <= 50_000; r++) h += 1 / r ** 1.07;
    const top = Math.max(...counts.values()) / n;
    expect(top).toBeGreaterThan((1 / h) * 0.95);
    expect(top).toBeLessThan((1 / h) * 1.05);
    const qs = syntheticQueries({ count: 5, seed: 42, profile: 'zipf' });
    for (const q of qs) expect(q.replace(/[.?]/g, '').split(' ')).toHaveLength(170);
  });
});
