import { mkdtemp, rm } from 'node:fs/promises';
import { counting } from './test-support/counting-embedder.js';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../core/log.js';
import type { Passage } from '../../corpora/types.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../tests/support/bundled-data.js';
import { createEmbedder } from '../embed/create-embedder.js';
import type { Embedder } from '../embed/types.js';
import { openDenseRetriever } from '../../retrieval/dense.js';
import { buildIndex } from '../build.js';
import { indexContent, readManifest } from '../manifest.js';
import { sharedUseLiteTokenizer } from '../embed/use-lite-tokenizer.js';
import { manifestSummary } from '../../src/cli/commands/index-cmd.js';
import { addDenseIndex } from './add-dense.js';
import type { DenseSection } from './dense-section.js';
import { EmbeddedTextHash } from './embedded-text.js';
import { connectDense, existingIds, openDenseTable } from './lance-table.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const modelDir = join(repoRoot, 'tests/fixtures/tiny-embedder/tiny-bert');
const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(0, 60)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));

async function* stream(ps: Passage[]) {
  yield* ps;
}

let tmp: string;
let tiny: Embedder;
let tinyShort: Embedder | undefined;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-dense-'));
  tiny = await createEmbedder({ provider: 'transformers', modelDir });
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('dense index in LanceDB', () => {
  it('builds through buildIndex --methods bm25,dense, records the embedder, and round-trips search', async () => {
    const out = join(tmp, 'idx');
    await buildIndex(stream(passages), {
      out,
      corpusName: 'barexam-sample',
      methods: ['bm25', 'dense'],
      workers: 0,
      dense: { embedder: { provider: 'transformers', modelDir }, batchSize: 16 },
    });
    const m = await readManifest(out);
    expect(m.methods).toEqual(expect.arrayContaining(['bm25', 'dense']));
    const d = m.dense as unknown as DenseSection;
    expect(d).toMatchObject({
      embedder: 'transformers',
      embedderId: 'transformers:tiny-bert',
      model: 'tiny-bert',
      dimension: 32,
      uri: 'dense',
      table: 'passages',
      metric: 'cosine',
      rows: 60,
      ann: null,
    });
    expect(d.spec).not.toHaveProperty('apiKey');
    const r = await openDenseRetriever(out);
    // A passage's own text is its nearest neighbour (cosine 1) under any deterministic embedder.
    for (const p of [passages[3], passages[41]]) {
      const hits = await r.search(p.text, { k: 5 });
      expect(hits[0]).toMatchObject({ id: p.id, rank: 1 });
      expect(hits[0].score).toBeCloseTo(1, 4);
      expect(hits.map((h) => h.rank)).toEqual([1, 2, 3, 4, 5]);
      for (let i = 1; i < hits.length; i++) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
    }
    const ex = await r.explain!(passages[3].text, passages[3].id);
    expect(ex.score).toBeCloseTo(1, 4);
    expect(await r.search('   ')).toEqual([]);
    expect(await r.search('hearsay', { k: 1000 })).toHaveLength(60);
  });

  it('resumes after an interruption without duplicates or re-embedding finished batches', async () => {
    const out = join(tmp, 'resume');
    await buildIndex(stream(passages), { out, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 });
    const first = counting(tiny);
    const ac = new AbortController();
    await expect(
      addDenseIndex(out, { embedder: first, batchSize: 10, signal: ac.signal, onProgress: (n) => n >= 30 && ac.abort(new Error('killed midway')) }),
    ).rejects.toThrow('killed midway');
    expect((await readManifest(out)).methods).not.toContain('dense');
    const table = await openDenseTable(await connectDense(join(out, 'dense')), 'passages', out);
    expect(await table.countRows()).toBe(30);

    const second = counting(tiny);
    const m = await addDenseIndex(out, { embedder: second, batchSize: 10 });
    expect(second.embedded).toBe(30);
    expect(m.methods).toContain('dense');
    // the recorded build time is the resumed call's: the manifest says 30 passages were embedded before it
    expect(m.dense).toMatchObject({ buildResumedAt: 30 });
    await table.checkoutLatest();
    const ids = await existingIds(table);
    expect(await table.countRows()).toBe(60);
    expect(ids.size).toBe(60);
    expect([...ids].sort()).toEqual(passages.map((p) => p.id).sort());
    const hits = await (await openDenseRetriever(out)).search(passages[55].text, { k: 1 });
    expect(hits[0].id).toBe(passages[55].id);
  });

  it("a rerun that finds every passage embedded keeps the manifest's build time (not the no-op's few ms)", async () => {
    const out = join(tmp, 'noop');
    await buildIndex(stream(passages), { out, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 });
    // an embedder that takes 40 ms a batch: the build takes ≥ 160 ms, a no-op rerun embeds nothing
    const slow: Embedder = {
      id: tiny.id,
      provider: tiny.provider,
      model: tiny.model,
      dimension: tiny.dimension,
      embed: async (texts, o) => (await new Promise((r) => setTimeout(r, 40)), tiny.embed(texts, o)),
    };
    const built = (await addDenseIndex(out, { embedder: slow, batchSize: 16 })).dense as unknown as DenseSection;
    expect(built.buildMs).toBeGreaterThanOrEqual(160);
    expect(built).not.toHaveProperty('buildResumedAt');
    const again = counting(slow);
    const m = (await addDenseIndex(out, { embedder: again, batchSize: 16 })).dense as unknown as DenseSection;
    expect(again.embedded).toBe(0);
    // before: buildMs became the no-op's own time ("resuming, 60 of 60 already embedded")
    expect(m.buildMs).toBe(built.buildMs);
    expect(m).not.toHaveProperty('buildResumedAt');
  });

  it('another --max-words over a finished or an interrupted dense index re-embeds every passage (saying so) and records the spec its vectors have', async () => {
    const out = join(tmp, 'respec');
    await buildIndex(stream(passages), { out, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 });
    const full = { provider: 'transformers' as const, modelDir };
    const short = { ...full, maxWords: 5 };
    tinyShort ??= await createEmbedder(short);
    await addDenseIndex(out, { embedder: counting(tiny), spec: full, batchSize: 16 });
    // the same settings again: nothing to embed
    const same = counting(tiny);
    await addDenseIndex(out, { embedder: same, spec: full, batchSize: 16 });
    expect(same.embedded).toBe(0);

    const warn = vi.spyOn(log, 'warn');
    const info = vi.spyOn(log, 'info');
    try {
      const five = counting(tinyShort);
      const m = await addDenseIndex(out, { embedder: five, spec: short, batchSize: 16 });
      expect(five.embedded).toBe(60);
      expect(warn.mock.calls.flat().join('\n')).toMatch(/other settings \(maxWords unlimited → 5\); embedding all 60 passages again/);
      // the passages the word limit cut are counted and said (before: nothing said how many)
      const cut = passages.filter((x) => x.text.split(/\s+/).filter(Boolean).length > 5).length;
      expect(cut).toBeGreaterThan(50);
      expect(warn.mock.calls.flat()).toContain(
        `dense: ${cut} of 60 passages were longer than the word limit (--max-words 5): embedded from their first 5 words`,
      );
      expect(info.mock.calls.flat().join('\n')).not.toMatch(/resuming/);
      expect((m.dense as unknown as DenseSection).spec).toMatchObject({ maxWords: 5 });
      // and recorded, so `index info` says it after the build
      expect((m.dense as unknown as DenseSection).passagesOverMaxWords).toBe(cut);
      expect(manifestSummary(out, m, { total: 0, parts: {} })).toContain(
        `maxWords 5, ${cut} passages longer than maxWords 5: embedded from their first 5 words`,
      );
    } finally {
      warn.mockRestore();
      info.mockRestore();
    }
    // the vectors are the 5-word ones: a passage's first 5 words find it at cosine 1
    const p = passages[17];
    const head = p.text.split(/\s+/).filter(Boolean).slice(0, 5).join(' ');
    const hits = await (await openDenseRetriever(out, { embedder: tinyShort })).search(head, { k: 1 });
    expect(hits[0].id).toBe(p.id);
    expect(hits[0].score).toBeCloseTo(1, 4);

    // interrupted with 5 words, rerun without a limit: none of the 5-word batches is kept
    const cut = join(tmp, 'respec-interrupted');
    await buildIndex(stream(passages), { out: cut, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 });
    const ac = new AbortController();
    await expect(
      addDenseIndex(cut, {
        embedder: counting(tinyShort),
        spec: short,
        batchSize: 10,
        signal: ac.signal,
        onProgress: (n) => n >= 30 && ac.abort(new Error('killed midway')),
      }),
    ).rejects.toThrow('killed midway');
    const again = counting(tiny);
    const m2 = await addDenseIndex(cut, { embedder: again, spec: full, batchSize: 10 });
    expect(again.embedded).toBe(60);
    expect((m2.dense as unknown as DenseSection).spec).not.toHaveProperty('maxWords');
  });

  it("use-lite: says how many passages pass the model's 128 tokens (embedded from their first 128), and records the limit and the count outside the vector settings", {
    timeout: 120_000,
  }, async () => {
    const out = join(tmp, 'use-lite-limit');
    const some = passages.slice(0, 16);
    await buildIndex(stream(some), { out, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 });
    const tokenizer = sharedUseLiteTokenizer();
    const words = (t: string) => t.split(/\s+/).filter(Boolean);
    // Independently: the passages whose first 256 words (the default word limit) are more than 128 tokens.
    const longer = some.filter((p) => tokenizer.encode(words(p.text).slice(0, 256).join(' ')).length > 128);
    expect(longer.length).toBeGreaterThan(0);
    expect(longer.length).toBeLessThan(some.length);
    const useLite = await createEmbedder({ provider: 'use-lite', workers: 0 });
    const warn = vi.spyOn(log, 'warn');
    let m: Awaited<ReturnType<typeof addDenseIndex>>;
    try {
      m = await addDenseIndex(out, { embedder: useLite, batchSize: 8 });
      expect(warn.mock.calls.flat().join('\n')).toContain(
        `dense: ${longer.length} of ${some.length} passages were longer than the use-lite model's 128 tokens: embedded from their first 128 tokens`,
      );
    } finally {
      warn.mockRestore();
    }
    const d = m.dense as unknown as DenseSection;
    expect(d).toMatchObject({ modelMaxTokens: 128, passagesOverModelMaxTokens: longer.length });
    expect(manifestSummary(out, m, { total: 0, parts: {} })).toContain(
      `maxWords 256, modelMaxTokens 128 (${longer.length} passages longer: embedded from their first 128 tokens)`,
    );
    // Informational: a run's indexContent (what resumes and merges compare) is what it was without them.
    const { modelMaxTokens: _limit, passagesOverModelMaxTokens: _count, ...before } = d;
    expect(indexContent({ ...m, dense: before as unknown as typeof m.dense })).toEqual(indexContent(m));
    // What the warning says is so: a longer passage's vector (of up to 256 words) is that of its first k + 1 words, the
    // fewest that pass 128 tokens (the same first 128 tokens), and not that of fewer words.
    const p = longer[0];
    const w = words(p.text);
    let k = 1;
    while (tokenizer.encode(w.slice(0, k + 1).join(' ')).length <= 128) k++;
    expect(k).toBeLessThan(110); // far short of the 256 words the default word limit keeps
    const [head, cut] = await useLite.embed([w.slice(0, k + 1).join(' '), w.slice(0, k - 8).join(' ')], { kind: 'passage' });
    await useLite.close?.();
    const table = await openDenseTable(await connectDense(join(out, 'dense')), 'passages', out);
    const [row] = (await table.query().select(['id', 'vector']).limit(some.length).toArray()).filter((r: { id: string }) => r.id === p.id) as Array<{
      vector: { toArray(): Float32Array };
    }>;
    const stored = row.vector.toArray();
    const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
    expect(cos(stored, head)).toBeGreaterThan(0.99999);
    expect(cos(stored, cut)).toBeLessThan(0.9999);
  });

  it("transformers: says how many passages pass its tokenizer's model_max_length (cut there by the pipeline, silently before), and records the limit and the count", async () => {
    const out = join(tmp, 'transformers-limit');
    // 12 bundled passages, 3 of them made long by appending the texts of the next ten (legal English past 512 tokens)
    const some = passages
      .slice(0, 12)
      .map((p, i) => (i % 4 === 1 ? { ...p, text: [p.text, ...passages.slice(20 + i, 30 + i).map((q) => q.text)].join(' ') } : p));
    await buildIndex(stream(some), { out, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 });
    // Independently: the tokenizer of the fixture, loaded on its own, with [CLS] and [SEP]
    const { AutoTokenizer, env } = await import('@xenova/transformers');
    env.localModelPath = dirname(modelDir);
    env.allowRemoteModels = false;
    const tokenizer = await AutoTokenizer.from_pretrained('tiny-bert');
    const longer = some.filter((p) => tokenizer.encode(p.text).length > 512);
    expect(longer.map((p) => p.id)).toEqual([some[1].id, some[5].id, some[9].id]);
    const warn = vi.spyOn(log, 'warn');
    let m: Awaited<ReturnType<typeof addDenseIndex>>;
    try {
      m = await addDenseIndex(out, { embedder: tiny, batchSize: 8 });
      expect(warn.mock.calls.flat().join('\n')).toContain(
        `dense: 3 of 12 passages were longer than the transformers model's 512 tokens: embedded from their first 512 tokens`,
      );
    } finally {
      warn.mockRestore();
    }
    const d = m.dense as unknown as DenseSection;
    expect(d).toMatchObject({ modelMaxTokens: 512, passagesOverModelMaxTokens: 3 });
    expect(manifestSummary(out, m, { total: 0, parts: {} })).toContain('modelMaxTokens 512 (3 passages longer: embedded from their first 512 tokens)');
    // What the warning says is so: more words after a long passage change nothing of its vector
    const [asIs, extended] = await tiny.embed([longer[0].text, `${longer[0].text} ${passages[50].text}`], { kind: 'passage' });
    expect(Array.from(extended)).toEqual(Array.from(asIs));
  });

  it('says one passage past the limit in the singular ("1 of 2 passages was … its first", index info "1 passage longer")', async () => {
    const out = join(tmp, 'transformers-one-over');
    // one passage made long with the texts of the next ten (past 512 tokens, as above), one as it is
    const two = [{ ...passages[1], text: [passages[1].text, ...passages.slice(21, 31).map((q) => q.text)].join(' ') }, passages[2]];
    await buildIndex(stream(two), { out, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 });
    const warn = vi.spyOn(log, 'warn');
    let m: Awaited<ReturnType<typeof addDenseIndex>>;
    try {
      m = await addDenseIndex(out, { embedder: tiny, batchSize: 8 });
      expect(warn.mock.calls.flat().join('\n')).toContain(
        "dense: 1 of 2 passages was longer than the transformers model's 512 tokens: embedded from its first 512 tokens",
      );
    } finally {
      warn.mockRestore();
    }
    expect(manifestSummary(out, m, { total: 0, parts: {} })).toContain('modelMaxTokens 512 (1 passage longer: embedded from its first 512 tokens)');
  });

  it('records the checksum of the titles and texts it embedded, and refuses to keep a finished table for passages of other titles', async () => {
    const out = join(tmp, 'titles');
    const titled = passages.slice(0, 12).map((p, i) => ({ ...p, title: `Case ${i}` }));
    await buildIndex(stream(titled), { out, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 });
    const m = await addDenseIndex(out, { embedder: tiny, batchSize: 16 });
    const hash = new EmbeddedTextHash();
    for (const p of titled) hash.add(p.id, `${p.title}\n${p.text}`);
    const embeddedTextChecksum = hash.digest();
    expect(m.dense).toMatchObject({ embeddedTextChecksum });
    expect(indexContent(m).dense).toMatchObject({ embeddedTextChecksum });
    // the same ids and texts (the corpus checksum), one title changed
    const retitled = titled.map((p, i) => (i === 5 ? { ...p, title: 'Case 5 (retitled)' } : p));
    await expect(addDenseIndex(out, { embedder: tiny, batchSize: 16, passages: stream(retitled) })).rejects.toMatchObject({
      code: 'OUT_DIR_REFUSED',
      message: expect.stringMatching(
        /embedded text \(title \+ text\) has checksum [0-9a-f]{12}…, the vectors were embedded from text with checksum [0-9a-f]{12}…/,
      ),
    });
    expect((await readManifest(out)).dense).toEqual(m.dense);
  });

  it('refuses a query embedder of another dimension or model with a clear error', async () => {
    const out = join(tmp, 'idx');
    const other = { ...tiny, id: 'transformers:other', dimension: 48, embed: tiny.embed } as Embedder;
    await expect(openDenseRetriever(out, { embedder: other })).rejects.toMatchObject({
      code: 'DIMENSION_MISMATCH',
      message: expect.stringMatching(/dimension 48 .*\(32\)/),
    });
    const sameDim = { ...tiny, id: 'transformers:some-other-32d', model: 'some-other-32d', embed: tiny.embed } as Embedder;
    await expect(openDenseRetriever(out, { embedder: sameDim })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/does not match the index's embedder transformers:tiny-bert/),
    });
    const bm25Only = join(tmp, 'resume-none');
    await buildIndex(stream(passages.slice(0, 5)), { out: bm25Only, corpusName: 'x', methods: ['bm25'], workers: 0 });
    await expect(openDenseRetriever(bm25Only)).rejects.toMatchObject({ code: 'METHOD_UNAVAILABLE' });
  });
});
