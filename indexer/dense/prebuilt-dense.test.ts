/**
 * The shipped prebuilt use-lite vectors against what they were embedded from (title + text):
 *  - a default-corpus index whose only change is one passage's title keeps the corpus checksum
 *    (texts only), but the vectors are refused, naming both embedded-text checksums — before, they
 *    were loaded as that index's dense vectors (exit 0);
 *  - a prebuilt manifest from before the embedded-text checksum is used with a warning that the
 *    titles could not be checked, and the dense section records none;
 *  - loading them tokenizes no passage: the count of passages longer than use-lite's 128 tokens
 *    comes from their manifest, and equals the count tokenizing the bundled corpus gives.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../core/log.js';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { manifestSummary } from '../../src/cli/commands/index-cmd.js';
import { runCli } from '../../tests/support/run-cli.js';
import { buildIndex } from '../build.js';
import { indexCorpus } from '../index-corpus.js';
import { readManifest } from '../manifest.js';
import { recordableSpec } from '../embed/create-embedder.js';
import { overModelMaxTokens } from '../embed/model-token-limit.js';
import { PREBUILT_DIR, readPrebuiltManifest } from '../embed/prebuilt.js';
import { sharedUseLiteTokenizer } from '../embed/use-lite-tokenizer.js';
import { addDenseIndex } from './add-dense.js';
import type { DenseSection } from './dense-section.js';
import { EmbeddedTextHash, passageEmbedText } from './embedded-text.js';
import { loadPrebuiltDense, PREBUILT_DENSE_SPEC, prebuiltEmbedder } from './prebuilt-dense.js';

let dir: string;
const bundled: Passage[] = [];
let retitled: Passage[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-prebuilt-dense-'));
  for await (const p of loadPassages('default')) bundled.push(p);
  await indexCorpus('default', { out: join(dir, 'default'), methods: ['bm25'], workers: 0 });
  // The bundled corpus with one case's title changed (its id and text as they are), named like it.
  const i = bundled.findIndex((p) => p.title);
  retitled = bundled.map((p, j) => (j === i ? { ...p, title: `${p.title} (retitled)` } : p));
  await buildIndex(retitled, { out: join(dir, 'retitled'), corpusName: 'default', methods: ['bm25'], workers: 0 });
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the shipped prebuilt vectors and the titles they were embedded with', () => {
  it('a title-only change keeps the corpus checksum, but the vectors are refused naming both embedded-text checksums', async () => {
    const [m, changed] = [await readManifest(join(dir, 'default')), await readManifest(join(dir, 'retitled'))];
    expect(changed.corpus.checksum).toBe(m.corpus.checksum);
    const shipped = (await readPrebuiltManifest('default-use-lite'))!.corpus.embeddedTextChecksum!;
    const hash = new EmbeddedTextHash();
    for (const p of retitled) hash.add(p.id, passageEmbedText(p));
    const now = hash.digest();

    const r = await runCli(['index', 'dense', join(dir, 'retitled'), '--prebuilt']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      `no prebuilt vectors match ${join(dir, 'retitled')}: not using the prebuilt vectors default-use-lite: the passages' embedded text`,
    );
    expect(r.stderr).toContain(`checksum ${now.slice(0, 12)}…`);
    expect(r.stderr).toContain(`checksum ${shipped.slice(0, 12)}…`);
    expect(r.stderr).toMatch(/drop --prebuilt to embed the passages/);
    expect((await readManifest(join(dir, 'retitled'))).methods).not.toContain('dense');
    // the path `index build … --methods …,dense` takes: not used, saying why (it then embeds)
    const said: string[] = [];
    expect(await loadPrebuiltDense(join(dir, 'retitled'), (l) => said.push(l))).toBeNull();
    expect(said.join('\n')).toMatch(/not using the prebuilt vectors default-use-lite: the passages' embedded text \(title \+ text\) has checksum/);
  }, 60_000);

  it('vectors whose manifest records no embedded-text checksum (older) are used with a warning, and the index records none', async () => {
    const root = join(dir, 'old-prebuilt');
    cpSync(join(PREBUILT_DIR, 'default-use-lite'), join(root, 'default-use-lite'), { recursive: true });
    const file = join(root, 'default-use-lite', 'manifest.json');
    const old = JSON.parse(readFileSync(file, 'utf8'));
    delete old.corpus.embeddedTextChecksum;
    delete old.modelMaxTokens;
    delete old.passagesOverModelMaxTokens;
    writeFileSync(file, JSON.stringify(old));
    const m = await readManifest(join(dir, 'retitled'));
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    try {
      const p = await prebuiltEmbedder(join(dir, 'retitled'), m.corpus.name, m.corpus.checksum, recordableSpec(PREBUILT_DENSE_SPEC), () => undefined, root);
      expect(p).not.toBeNull();
      expect(p!.recordedTexts).toEqual({ embeddedTextChecksum: undefined });
      expect(warn.mock.calls.flat().join('\n')).toMatch(/record no embedded-text checksum .*titles .* could not be checked, and the dense index records none/);
      const after = await addDenseIndex(join(dir, 'retitled'), {
        embedder: p!.embedder,
        spec: PREBUILT_DENSE_SPEC,
        batchSize: 2048,
        recordedTexts: p!.recordedTexts,
      });
      expect(after.dense).not.toHaveProperty('embeddedTextChecksum');
      expect(manifestSummary('idx', after, { total: 0, parts: {} })).toContain('\n  embedded  ids, titles and texts sha256 not recorded');
    } finally {
      warn.mockRestore();
    }
  }, 60_000);

  it('loading them tokenizes no passage, and records the count tokenizing the bundled corpus gives, and their embedded-text checksum', async () => {
    const clipped = overModelMaxTokens(PREBUILT_DENSE_SPEC, 'use-lite', 'universal-sentence-encoder-lite')!;
    const counted = bundled.filter((p) => clipped(passageEmbedText(p))).length;
    const encode = vi.spyOn(sharedUseLiteTokenizer(), 'encode');
    try {
      expect(await loadPrebuiltDense(join(dir, 'default'), () => undefined)).toBe('default-use-lite');
      expect(encode).not.toHaveBeenCalled();
    } finally {
      encode.mockRestore();
    }
    const m = await readManifest(join(dir, 'default'));
    const d = m.dense as unknown as DenseSection;
    const shipped = (await readPrebuiltManifest('default-use-lite'))!;
    expect(d).toMatchObject({ modelMaxTokens: 128, passagesOverModelMaxTokens: counted, embeddedTextChecksum: shipped.corpus.embeddedTextChecksum });
    expect(shipped.passagesOverModelMaxTokens).toBe(counted);
    expect(manifestSummary('idx', m, { total: 0, parts: {} })).toContain(
      `\n  embedded  ids, titles and texts sha256 ${d.embeddedTextChecksum!.slice(0, 12)}…\n`,
    );
  }, 120_000);
});
