/**
 * `lexcase index dense DIR --rebuild` in-process on 40 Bar Exam QA passages with the tiny-bert
 * fixture: a finished dense part made from one model folder is refused by a plain `index dense`
 * with another folder under the same model name (its hint used to say "build the index again into
 * a new dir": there was no way but deleting files by hand); `--rebuild` embeds every passage again
 * beside the old part and swaps the new one in, searchable, nothing left over. A rebuild whose
 * embedding endpoint fails midway (HTTP 400 on its third request, 127.0.0.1) leaves the old part,
 * its manifest entry and its search results as they were, and no stage dir. A rebuild killed exactly
 * between the swap's two renames (dense/ aside as .dense-old-<pid>/, the new part still in the stage,
 * no dense/: made on disk here) is noticed by the next command that opens the index, which puts the
 * old part back and says so in one line; before, that search failed and the next --rebuild deleted
 * the part set aside.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Passage } from '../../../corpora/types.js';
import { buildIndex } from '../../../indexer/build.js';
import { modelFilesDigest } from '../../../indexer/embed/vector-source.js';
import { readManifest } from '../../../indexer/manifest.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../../tests/support/bundled-data.js';
import { runCli } from '../../../tests/support/run-cli.js';

const TINY_BERT = join(import.meta.dirname, '../../../tests/fixtures/tiny-embedder/tiny-bert');
const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(0, 40)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));

let tmp: string;
let index: string;
/** A copy of tiny-bert, same name, its config.json changed: another model folder (retrained weights, say). */
let otherDir: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-dense-rebuild-'));
  otherDir = join(tmp, 'other', 'tiny-bert');
  await cp(TINY_BERT, otherDir, { recursive: true });
  const cfg = JSON.parse(await readFile(join(otherDir, 'config.json'), 'utf8'));
  await writeFile(join(otherDir, 'config.json'), JSON.stringify({ ...cfg, layer_norm_eps: 1e-6 }));
  index = join(tmp, 'idx');
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 },
  );
  const r = await runCli(['index', 'dense', index, '--model-dir', TINY_BERT]);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterEach(() => vi.unstubAllEnvs());
afterAll(async () => {
  await closeSparseIndexes();
  await rm(tmp, { recursive: true, force: true });
});

const dense = async () => (await readManifest(index)).dense as unknown as { source?: string; rows: number; embedderId: string };
const search = async () => {
  const r = await runCli(['--json', 'search', 'hearsay statement offered for its truth', '--index', index, '--method', 'dense', '-k', '3']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { hits: { id: string; score: number }[] }).hits.map((h) => [h.id, h.score]);
};

describe('lexcase index dense --rebuild', () => {
  it('replaces the vectors a plain index dense refuses (another model folder under the same name): every passage embedded again, swapped in, nothing left over', async () => {
    const refused = await runCli(['index', 'dense', index, '--model-dir', otherDir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('(the dense index is kept)');
    expect(refused.stderr).toContain('to embed with this one, rerun with --rebuild');
    expect((await dense()).source).toBe(`model files sha256 ${await modelFilesDigest(TINY_BERT)}`);

    const r = await runCli(['--json', 'index', 'dense', index, '--model-dir', otherDir, '--rebuild']);
    expect(r.code, r.stderr).toBe(0);
    expect(await dense()).toMatchObject({ rows: 40, embedderId: 'transformers:tiny-bert', source: `model files sha256 ${await modelFilesDigest(otherDir)}` });
    expect((await readdir(index)).sort()).toEqual(['.lexcase-owner', 'blocks.crc32', 'dense', 'docs', 'manifest.json', 'sparse']);
    expect(await search()).toHaveLength(3);
    // the new part is the index's own: a plain rerun with the same folder finds it finished and says so (exit 0, not "resuming")
    const again = await runCli(['index', 'dense', index, '--model-dir', otherDir]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('dense: complete, all 40 passages already embedded with transformers:tiny-bert; nothing embedded');
    expect(again.stderr).not.toContain('resuming'); // before: "dense: resuming, 40 of 40 passages already embedded"
  }, 120_000);

  it('a rebuild whose endpoint fails midway keeps the dense part the index had: its manifest entry, its search results, no stage dir', async () => {
    let requests = 0;
    const srv = createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        const input: string[] = JSON.parse(raw).input;
        // the dimension probe, one batch of 10, then refused
        if (++requests >= 3) return res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"model unloaded"}}');
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: Array.from({ length: 8 }, (_, j) => ((t.length + j) % 5) + 1) })) }));
      });
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const before = { dense: await dense(), hits: await search() };
      vi.stubEnv('LEXCASE_EMBED_BASE_URL', `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`);
      const r = await runCli(['index', 'dense', index, '--embedder', 'openai', '--model', 'e5', '--embed-batch', '10', '--rebuild']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('HTTP 400: {"error":{"message":"model unloaded"}}');
      expect(requests).toBe(3);
      expect(await dense()).toEqual(before.dense);
      expect(await search()).toEqual(before.hits);
      expect((await readdir(index)).sort()).toEqual(['.lexcase-owner', 'blocks.crc32', 'dense', 'docs', 'manifest.json', 'sparse']);
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
    }
  }, 120_000);

  it('takes no --prebuilt, --dense-uri or --dense-table', async () => {
    expect((await runCli(['index', 'dense', index, '--prebuilt', '--rebuild'])).stderr).toContain('--prebuilt and --rebuild do not go together');
    expect((await runCli(['index', 'dense', index, '--rebuild', '--dense-uri', join(tmp, 'elsewhere')])).stderr).toContain(
      'it takes no --dense-uri or --dense-table',
    );
  }, 60_000);

  /** The state a --rebuild killed between its two renames leaves: dense/ aside, the new part staged, no dense/. */
  const stopBetweenRenames = async (pid: number) => {
    await rename(join(index, 'dense'), join(index, `.dense-old-${pid}`));
    await mkdir(join(index, `.dense-rebuild-${pid}`));
    await cp(join(index, `.dense-old-${pid}`), join(index, `.dense-rebuild-${pid}`, 'dense'), { recursive: true });
  };
  const LISTING = ['.lexcase-owner', 'blocks.crc32', 'dense', 'docs', 'manifest.json', 'sparse'];

  it('a rebuild stopped between its two renames (no dense/): the next search puts the old part back, says so in one line, and ranks as before', async () => {
    const before = { dense: await dense(), hits: await search() };
    await stopBetweenRenames(4242);
    const r = await runCli(['--json', 'search', 'hearsay statement offered for its truth', '--index', index, '--method', 'dense', '-k', '3']);
    // before: exit 1, the dense table not found
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `${index}: put dense/ back from .dense-old-4242, where an \`index dense --rebuild\` stopped between its two renames had left it; the dense part is the one the index had before (the one its manifest records); rerun the --rebuild to replace it`,
    );
    expect((JSON.parse(r.stdout) as { hits: { id: string; score: number }[] }).hits.map((h) => [h.id, h.score])).toEqual(before.hits);
    expect((await readdir(index)).sort()).toEqual(LISTING);
    expect(await dense()).toEqual(before.dense);
  }, 120_000);

  it('a --rebuild run on that state puts the old part back before it sweeps leftovers, then rebuilds', async () => {
    await stopBetweenRenames(4343);
    const r = await runCli(['index', 'dense', index, '--model-dir', TINY_BERT, '--rebuild']);
    // before: the sweep removed .dense-old-4343 as a leftover
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('put dense/ back from .dense-old-4343');
    expect((await readdir(index)).sort()).toEqual(LISTING);
    expect(await dense()).toMatchObject({ rows: 40, source: `model files sha256 ${await modelFilesDigest(TINY_BERT)}` });
    expect(await search()).toHaveLength(3);
  }, 120_000);
});
