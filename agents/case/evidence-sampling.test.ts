/**
 * The CASE advocate outside a run runs at CASE's temperature 0.3 on every surface: the library's
 * query service and findEvidence, given createChatModel(loadConfig().llm) with no temperature set,
 * send what `lexcase evidence`, /v1 and MCP send; a temperature the user set (even 0) wins.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { buildIndex } from '../../indexer/build.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { openQueryService } from '../../serve/query/query-service.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { findEvidence } from './find-evidence.js';
import { PASSAGES } from './test-support/fixtures.js';

let dir: string;
let srv: ScriptedServer;
const H = 'Paul may impeach his own witness';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-sampling-'));
  await buildIndex(
    Object.entries(PASSAGES).map(([id, text]) => ({ id, text, source: 'fre' })),
    { out: join(dir, 'idx'), corpusName: 'fre', methods: ['bm25', 'qld'], workers: 0 },
  );
  srv = await startScriptedServer(() => ({ content: '{"analysis":"FRE 607","evidence":[]}' }));
});
afterAll(async () => {
  await srv.close();
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const modelFrom = async (env: Record<string, string>) => {
  const { llm } = await loadConfig({ env: { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', ...env }, cwd: dir });
  llm.cacheDir = false;
  return createChatModel(llm);
};
const lastTemperature = () => srv.requests.at(-1)?.body.temperature;

describe('find_evidence sampling from the library', () => {
  it('the query service and findEvidence run a loadConfig model with no temperature set at CASE 0.3, as the CLI, /v1 and MCP do', async () => {
    const model = await modelFrom({});
    const svc = await openQueryService({ indexes: [{ name: 'fre', dir: join(dir, 'idx') }], llm: model });
    try {
      expect((await svc.findEvidence({ hypothesis: H, mode: 'llm' })).mode).toBe('llm');
      expect(lastTemperature()).toBe(0.3);
    } finally {
      await svc.close();
    }
    await findEvidence({ hypothesis: H, index: join(dir, 'idx'), llm: model });
    expect(lastTemperature()).toBe(0.3);
  });

  it('a temperature the user set wins, even 0', async () => {
    const model = await modelFrom({ LEXCASE_LLM_TEMPERATURE: '0' });
    const svc = await openQueryService({ indexes: [{ name: 'fre', dir: join(dir, 'idx') }], llm: model });
    try {
      await svc.findEvidence({ hypothesis: H, mode: 'llm' });
      expect(lastTemperature()).toBe(0);
    } finally {
      await svc.close();
    }
    await findEvidence({ hypothesis: H, index: join(dir, 'idx'), llm: await modelFrom({ LEXCASE_LLM_TEMPERATURE: '0.7' }) });
    expect(lastTemperature()).toBe(0.7);
  });
});
