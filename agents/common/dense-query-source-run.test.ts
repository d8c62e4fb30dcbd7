/**
 * An agent run whose dense searches embed their queries by another embedding server than the one the
 * index's passage vectors came from (LEXCASE_EMBED_BASE_URL naming another server under the same model
 * name) records it (config.json `denseQuerySource`) and its report.md says it under "Dense query
 * source", beside figures made from those searches. Before, only the warning on stderr as the index
 * opened said it: a saved run's accuracy over rankings of cosines between two models read as any other.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLogLevel } from '../../core/log.js';
import type { Passage } from '../../corpora/types.js';
import { writeReport } from '../../eval/report/write-report.js';
import { buildIndex } from '../../indexer/build.js';
import { addDenseIndex } from '../../indexer/dense/add-dense.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../tests/support/bundled-data.js';
import { FakeChatModel } from '../../tests/support/fake-chat-model.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../../tests/support/fake-embedding-server.js';
import { runCaseExperiment } from '../case/experiment.js';

const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(0, 16)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));
const letters = (t: string) => Array.from({ length: 6 }, (_, j) => [...t].filter((c) => c.charCodeAt(0) % 6 === j).length + 1);

let a: FakeEmbeddingServer;
let b: FakeEmbeddingServer;
let tmp: string;
let index: string;
const envBefore = process.env.LEXCASE_EMBED_BASE_URL;

beforeAll(async () => {
  setLogLevel('silent');
  a = await startFakeEmbeddingServer(letters, 'local-embed');
  b = await startFakeEmbeddingServer((t) => letters(t).reverse(), 'local-embed');
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-query-source-run-'));
  index = join(tmp, 'index');
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 },
  );
  process.env.LEXCASE_EMBED_BASE_URL = a.url;
  await addDenseIndex(index, { embedder: { provider: 'openai', model: 'local-embed' }, batchSize: 8 });
});
afterAll(async () => {
  setLogLevel('info');
  if (envBefore === undefined) delete process.env.LEXCASE_EMBED_BASE_URL;
  else process.env.LEXCASE_EMBED_BASE_URL = envBefore;
  await Promise.all([a.close(), b.close()]);
  await rm(tmp, { recursive: true, force: true });
});

async function denseRag(name: string, embedUrl: string): Promise<{ config: Record<string, unknown>; report: string; json: Record<string, unknown> }> {
  process.env.LEXCASE_EMBED_BASE_URL = embedUrl;
  const runDir = join(tmp, name);
  const llm = new FakeChatModel(() => '{"reasoning":"r","answer":"B"}');
  await runCaseExperiment({ system: 'baseline', mode: 'dense-rag', llm, dataset: 'barexam', split: 'val', index, limit: 2, runDir });
  const written = await writeReport(runDir);
  return {
    config: (JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')) as { config: Record<string, unknown> }).config,
    report: written.markdown,
    json: written.json.sections,
  };
}

describe('an agent run whose dense queries are embedded by another source than the index', () => {
  it('records it and its report says it (the same server: neither)', async () => {
    const same = await denseRag('same', a.url);
    expect(same.config.denseQuerySource).toBeUndefined();
    expect(same.report).not.toContain('Dense query source');

    const other = await denseRag('other', b.url);
    expect(other.config.denseQuerySource).toEqual({ dense: `endpoint ${b.url}` });
    expect(other.report).toContain('## Dense query source');
    expect(other.report).toContain(
      `**Warning:** dense: queries were embedded by endpoint ${b.url}, not by the endpoint or model files the index's passage vectors came from`,
    );
    expect(other.json.denseQuerySource).toMatchObject({ methods: { dense: `endpoint ${b.url}` } });
  }, 120_000);
});
