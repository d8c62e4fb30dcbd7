/**
 * An agent run whose dense searches embed their queries by another embedding server than the one the
 * index's passage vectors came from (LEXCASE_EMBED_BASE_URL naming another server under the same model
 * name) records it (config.json `denseQuerySource`) and its report.md says it under "Dense query
 * source", beside figures made from those searches. Before, only the warning on stderr as the index
 * opened said it: a saved run's accuracy over rankings of cosines between two models read as any other.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setLogLevel } from '../../core/log.js';
import { writeReport } from '../../eval/report/write-report.js';
import { FakeChatModel } from '../../tests/support/fake-chat-model.js';
import { openTwoEmbeddingServers, type TwoEmbeddingServers } from '../../tests/support/two-embedding-servers.js';
import { runCaseExperiment } from '../case/experiment.js';

let setup: TwoEmbeddingServers;

beforeAll(async () => {
  setLogLevel('silent');
  setup = await openTwoEmbeddingServers('lexcase-query-source-run-');
});
afterAll(async () => {
  setLogLevel('info');
  await setup.close();
});

async function denseRag(name: string, embedUrl: string): Promise<{ config: Record<string, unknown>; report: string; json: Record<string, unknown> }> {
  process.env.LEXCASE_EMBED_BASE_URL = embedUrl;
  const runDir = join(setup.tmp, name);
  const llm = new FakeChatModel(() => '{"reasoning":"r","answer":"B"}');
  await runCaseExperiment({ system: 'baseline', mode: 'dense-rag', llm, dataset: 'barexam', split: 'val', index: setup.index, limit: 2, runDir });
  const written = await writeReport(runDir);
  return {
    config: (JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')) as { config: Record<string, unknown> }).config,
    report: written.markdown,
    json: written.json.sections,
  };
}

describe('an agent run whose dense queries are embedded by another source than the index', () => {
  it('records it and its report says it (the same server: neither)', async () => {
    const same = await denseRag('same', setup.a.url);
    expect(same.config.denseQuerySource).toBeUndefined();
    expect(same.report).not.toContain('Dense query source');

    const other = await denseRag('other', setup.b.url);
    expect(other.config.denseQuerySource).toEqual({ dense: `endpoint ${setup.b.url}` });
    expect(other.report).toContain('## Dense query source');
    expect(other.report).toContain(
      `**Warning:** dense: queries were embedded by endpoint ${setup.b.url}, not by the endpoint or model files the index's passage vectors came from`,
    );
    expect(other.json.denseQuerySource).toMatchObject({ methods: { dense: `endpoint ${setup.b.url}` } });
  }, 120_000);
});
