/**
 * `run case` records what its index holds (config.json `indexContent`: corpus checksum, analyzer,
 * the dense vectors' model and settings), not only its path: a resume over the same path rebuilt
 * from another corpus, or re-embedded with another word limit, is refused before any item runs, so
 * one run's figure never averages two corpora or two sets of vectors; the same corpus rebuilt, or
 * the same vector settings spelled out, resumes. The same index at another path (moved, copied, rebuilt
 * in a clone elsewhere) resumes, saying once that the index moved; before, it was refused
 * (`field "index" differs`) and the run's finished items were lost to a new run dir.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { addDenseIndex } from '../../indexer/dense/add-dense.js';
import type { EmbedderSpec } from '../../indexer/embed/types.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { runCaseExperiment } from './experiment.js';

const TINY_BERT = join(import.meta.dirname, '../../tests/fixtures/tiny-embedder/tiny-bert');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-case-index-content-'));
});
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

/** Rebuild the index at `out` (the old one removed, as `index build` over a used --out leaves it). */
async function rebuild(out: string, build: () => Promise<void>): Promise<void> {
  await closeSparseIndexes();
  rmSync(out, { recursive: true, force: true });
  await build();
}

/** 300 legal_corpus passages: another corpus than the small Bar Exam index. */
async function buildLegalCorpusIndex(out: string): Promise<void> {
  const passages: Passage[] = [];
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 300) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out, corpusName: 'legal_corpus', workers: 0 },
  );
}

describe('run case over a rebuilt index', () => {
  it('a resume over an index analysed under another Unicode version warns naming both, goes on and records it; a run dir that records none says it cannot check it', async () => {
    const index = join(dir, 'idx-u');
    const runDir = join(dir, 'r-u');
    const run = (limit: number) =>
      runCaseExperiment({ system: 'case', offline: true, evidence: 'plan', dataset: 'barexam', split: 'val', index, limit, runDir });
    await buildSmallBarexamIndex(index, { items: 6 });
    await run(2);
    const file = join(runDir, 'config.json');
    const now = process.versions.unicode;
    // the run as started over the same index built under a Node of Unicode 14.0
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    cfg.config.indexContent.analyzerUnicode = '14.0';
    writeFileSync(file, JSON.stringify(cfg, null, 2));
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => ((stderr += String(c)), true));
    try {
      expect(await run(3)).toMatchObject({ ran: 1, skipped: 2 });
      expect(stderr).toContain(
        `over an index analysed under Unicode ${now}, the run's earlier items searched one analysed under Unicode 14.0 (indexContent.analyzerUnicode;`,
      );
      const after = JSON.parse(readFileSync(file, 'utf8'));
      expect(after.resumes.at(-1).changed).toEqual({ 'indexContent.analyzerUnicode': { from: '14.0', to: now } });
      // a run dir an older lexcase wrote (no analyzerUnicode recorded): one line that it is not checked, recorded from then on
      delete after.config.indexContent.analyzerUnicode;
      writeFileSync(file, JSON.stringify(after, null, 2));
      stderr = '';
      expect(await run(4)).toMatchObject({ ran: 1, skipped: 3 });
      expect(stderr).toContain("does not record indexContent.analyzerUnicode (the Unicode version the index's analyzer read its characters with)");
      expect(stderr).not.toContain('analysed under Unicode');
      expect(JSON.parse(readFileSync(file, 'utf8')).config.indexContent.analyzerUnicode).toBe(now);
    } finally {
      spy.mockRestore();
    }
  }, 120_000);

  it('a resume over an index rebuilt from another corpus is refused (field "indexContent" differs); the same corpus rebuilt resumes', async () => {
    const index = join(dir, 'idx');
    const runDir = join(dir, 'r1');
    const run = (limit: number) =>
      runCaseExperiment({ system: 'case', offline: true, evidence: 'plan', dataset: 'barexam', split: 'val', index, limit, runDir });
    await buildSmallBarexamIndex(index, { items: 6 });
    expect(await run(2)).toMatchObject({ ran: 2, skipped: 0 });
    const manifest = JSON.parse(readFileSync(join(index, 'manifest.json'), 'utf8'));
    expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config.indexContent).toEqual({
      corpus: 'test',
      checksum: manifest.corpus.checksum,
      passages: manifest.corpus.passages,
      analyzer: manifest.analyzer,
      // and the Unicode version its analyzer read characters with, as the manifest records it
      analyzerUnicode: process.versions.unicode,
    });
    expect(manifest.analyzerUnicode).toBe(process.versions.unicode);

    // the same passages rebuilt (a new build time): the same index, the run grows
    await rebuild(index, () => buildSmallBarexamIndex(index, { items: 6 }));
    expect(await run(3)).toMatchObject({ ran: 1, skipped: 2 });

    // another corpus at the same path: refused, nothing run or written
    await rebuild(index, () => buildLegalCorpusIndex(index));
    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8');
    await expect(run(6)).rejects.toMatchObject({
      code: 'RUN_INVALID',
      // the deepest fields that differ, with both values
      message: expect.stringMatching(
        /r1: was started with a different config \(field "indexContent" differs: indexContent\.corpus "test" recorded, "legal_corpus" now; indexContent\.checksum; indexContent\.passages \d+ recorded, 300 now\); use a new run dir/,
      ),
    });
    expect(readFileSync(join(runDir, 'results.jsonl'), 'utf8')).toBe(results);
  }, 120_000);

  it('a resume over the index re-embedded with another word limit is refused, naming indexContent.dense.vectors.maxWords and both values; the same settings spelled out resume', async () => {
    const index = join(dir, 'idx-d');
    const runDir = join(dir, 'r-d');
    const run = (limit: number) =>
      runCaseExperiment({ system: 'case', offline: true, evidence: 'plan', dataset: 'barexam', split: 'val', index, limit, runDir });
    const embed = (extra: Omit<EmbedderSpec, 'provider'>) =>
      addDenseIndex(index, { embedder: { provider: 'transformers', modelDir: TINY_BERT, ...extra }, batchSize: 64 });
    await buildSmallBarexamIndex(index, { items: 6 });
    await embed({ maxWords: 5 });
    expect(await run(2)).toMatchObject({ ran: 2, skipped: 0 });
    expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config.indexContent.dense).toEqual({
      embedder: 'transformers',
      model: 'tiny-bert',
      dimension: 32,
      // and where they came from: a digest of the model folder's files, not its path
      vectors: { maxWords: 5, queryPrefix: '', passagePrefix: '', quantized: false, source: expect.stringMatching(/^model files sha256 [0-9a-f]{64}$/) },
      // and the text they were embedded from (ids, titles and texts: indexer/dense/embedded-text.ts)
      embeddedTextChecksum: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    // the same vectors with the model's defaults spelled out (no prefixes, not quantized): the run grows
    await embed({ maxWords: 5, queryPrefix: '', quantized: false });
    expect(await run(3)).toMatchObject({ ran: 1, skipped: 2 });

    // every passage embedded again with 256 words: refused, nothing run or written
    await embed({ maxWords: 256 });
    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8');
    await expect(run(6)).rejects.toMatchObject({
      code: 'RUN_INVALID',
      // the field that differs is named down to the word limit, with both values
      message: expect.stringMatching(
        /r-d: was started with a different config \(field "indexContent" differs: indexContent\.dense\.vectors\.maxWords 5 recorded, 256 now\); use a new run dir/,
      ),
    });
    expect(readFileSync(join(runDir, 'results.jsonl'), 'utf8')).toBe(results);
  }, 120_000);

  it('a resume over the same index copied to another path runs the rest and says once "index moved: OLD → NEW (same checksums)"; another index at another path is refused', async () => {
    const index = join(dir, 'idx-m');
    const runDir = join(dir, 'r-m');
    const run = (at: string, limit: number) =>
      runCaseExperiment({ system: 'case', offline: true, evidence: 'plan', dataset: 'barexam', split: 'val', index: at, limit, runDir });
    await buildSmallBarexamIndex(index, { items: 6 });
    expect(await run(index, 2)).toMatchObject({ ran: 2, skipped: 0 });

    // the index copied elsewhere (a project cloned into another folder): the run grows over it
    const moved = join(dir, 'elsewhere', 'idx-m');
    cpSync(index, moved, { recursive: true });
    const stderr = vi.spyOn(process.stderr, 'write');
    let said: string[];
    try {
      expect(await run(moved, 4)).toMatchObject({ ran: 2, skipped: 2 });
      said = stderr.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('index moved'));
    } finally {
      stderr.mockRestore();
    }
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`index moved: ${index} → ${moved} (same checksums`);
    const file = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
    // the path the run started with stays recorded; the resume records the move
    expect(file.config.index).toBe(index);
    expect(file.resumes.at(-1).changed).toMatchObject({ index: { from: index, to: moved } });

    // another corpus at yet another path: refused by what it holds, nothing run or written
    const other = join(dir, 'other-idx');
    await buildLegalCorpusIndex(other);
    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8');
    await expect(run(other, 6)).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(
        /r-m: was started with a different config \(field "indexContent" differs: indexContent\.corpus "test" recorded, "legal_corpus" now/,
      ),
    });
    expect(readFileSync(join(runDir, 'results.jsonl'), 'utf8')).toBe(results);
  }, 120_000);
});
